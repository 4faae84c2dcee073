"""A peer's whole command line (peers/README.md): its arguments, `--ready`, the prepare options
(`--build-only`, ...), the run of every point and the exit status."""
import sys
from pathlib import Path

from . import basics, handover, planning

def parse_args(peer, script):
    p = basics.Parser(prog=script.name, description=f"{peer.LABEL} as a peer of the {peer.STUDY} "
               "study: its outputs and times on a config's points, handed to `ladder ingest`.")
    p.add_argument("config", nargs="?", help=f"a ladder config of the {peer.STUDY} study")
    p.add_argument("--out", help="the results file `ladder ingest` writes")
    p.add_argument("--ladder", default=basics.LADDER, help="the ladder binary (default the build tree's, "
                   "the installed tree's, else ladder on PATH)")
    p.add_argument("--scale", choices=("paper", "quick"), help="as `ladder run --scale`")
    p.add_argument("--offline", action="store_true", help="never download or install (exit 2)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.add_argument("--ready", action="store_true", help="can the peer run here now? one line")
    p.add_argument("--only-sweeps", help="hand over only these sweeps' points (comma-separated)")
    p.add_argument("--validate", help="full, sample:N or off (`ladder ingest --validate`)")
    p.add_argument("--replay", metavar="DIR", help="no library: hand over the outputs of "
                   "`ladder run CONFIG --dump-outputs DIR`")
    p.add_argument("--cache", default=str(basics.CACHE), help="fetched packages and builds")
    # --build-only and the like: make the library ready, print what was made, stop.
    for flag, (text, make) in peer.PREPARE.items():
        p.add_argument(flag, dest="prepare", action="store_const", const=make, help=text)
    peer.options(p)
    args = p.parse_args()
    args.prog, args.script, args.prepare_flag = p.prog, basics.shown(script), next(iter(peer.PREPARE))
    args.module = f"{__package__}.{peer.STUDY}.{peer.NAME}"  # as `python3 -m` runs it
    if "/" in args.ladder:  # gen runs in a scratch folder
        args.ladder = str(Path(args.ladder).resolve())
    return args


def main(peer, script=None):
    """The peer script's whole run; its exit status. SCRIPT is the file run where it is not the
    peer module's own: a script that runs another peer's module at other settings (its name
    names its results, `--ready` line and progress)."""
    script = Path(script or peer.__file__).resolve()
    peer.NAME, peer.STUDY = script.stem, script.parent.name
    args = parse_args(peer, script)
    if args.ready:
        try:
            print(basics.one_line(f"{peer.NAME}: ready ({peer.ready(args)})"))
            return 0
        except basics.NotReady as err:
            print(basics.one_line(f"{peer.NAME}: not ready: {err}"))
            return 1
    try:
        if args.prepare:
            print(args.prepare(args))
            return 0
        if not args.config or not args.out:
            raise basics.PeerError("give a CONFIG and --out FILE")
        if args.replay and not Path(args.replay).is_dir():
            raise basics.PeerError(f"--replay {args.replay}: no such directory")
        if args.replay:
            handover.replay_dumps(args.replay, peer.STUDY)  # before anything runs
        if Path(args.cache).exists() and not Path(args.cache).is_dir():
            raise basics.PeerError(f"--cache {args.cache}: not a folder")
        points = planning.plan_points(args, peer.STUDY)
        lib, info = (None, handover.REPLAY) if args.replay else peer.setup(args)
        variants = peer.variants(args, lib)
        if args.replay:
            for v in variants:
                v["label"] += " (replayed outputs)"
        info = {"name": peer.LABEL, "script": args.script, **info}
        return handover.hand_over(peer, args, points, lib, info, variants)
    except basics.PeerError as err:
        print(f"{args.prog}: error: {basics.one_line(err)}", file=sys.stderr)
        return 2
    except OSError as err:  # a path given that cannot be read or written, a full disk
        print(f"{args.prog}: error: {basics.one_line(err)}", file=sys.stderr)
        return 2
    except RuntimeError as err:  # the library's self-check failed
        print(f"{args.prog}: {basics.one_line(err)}", file=sys.stderr)
        return 1
