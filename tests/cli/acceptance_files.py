"""The committed acceptance runs of the process-level contract, recompared by this build
(scripts/acceptance_tally.py over results/reference/h200/development/acceptance/, with the
H200 dimensioning): identical code gives no `faster`/`slower` and no `same` whose MDE80 is over
3%, no drift; the planted 50 us - 1 ms rows are `slower` on at least 65% (+5%) and 80% (+10%),
offline and end to end; TWED's host-bound rows are never `same`; unplanted rows get no verdict;
one process a side with --calibration gives at most 10 false verdicts in the 50 comparisons.
A change to compare's rules that breaks what the README there reports fails here.
  acceptance_files.py LADDER"""
import re
import subprocess
import sys
from pathlib import Path

from clitest import finish

root = Path(__file__).resolve().parents[2]
ref = root / "results" / "reference" / "h200" / "development"
problems = []
out = subprocess.run([sys.executable, str(root / "scripts" / "acceptance_tally.py"), sys.argv[1],
                      str(ref / "acceptance"), "--dimensioning", str(ref / "dimensioning")],
                     capture_output=True, text=True, timeout=300)
text = out.stdout
if out.returncode != 0:
    finish(["acceptance_tally.py exited %d: %s" % (out.returncode, out.stderr[-800:])])

total = re.search(r"^\| all \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|", text, re.M)
if not total:
    finish(["no totals row in: %r" % text[:600]])
rows, verdicts, _, _, _, same_wide, drift = map(int, total.groups())
if rows < 600:
    problems.append("identical: %d rows tested, want the 612 of the five smoke configs" % rows)
if verdicts or same_wide or drift:
    problems.append("identical: %d faster/slower, %d same with MDE80 over 3%%, %d drift; want none"
                    % (verdicts, same_wide, drift))
for rate in re.findall(r"\| ([\d.]+)% \|$", text, re.M):
    if not 3.0 <= float(rate) <= 6.0:
        problems.append("identical: p < 0.05 on %s%% of rows over random splits, want about 5%%" % rate)

sections = re.split(r"^## ", text, flags=re.M)
for section in sections:
    if not section.startswith("Planted"):
        continue
    name = section.splitlines()[0]
    for factor, body in re.findall(r"^\+(\d+)%:\n((?:  .*\n?)*)", section, re.M):
        m = re.search(r"50 us - 1 ms: slower (\d+) of (\d+)", body)
        want = 0.65 if factor == "5" else 0.80
        if not m or int(m.group(1)) < want * int(m.group(2)):
            problems.append("%s +%s%%: 50 us - 1 ms %s, want slower on %d%% or more"
                            % (name, factor, m.group(0) if m else "missing", 100 * want))
        tw = re.search(r"twed host-bound: slower (\d+) of (\d+) \(\d+%\), same (\d+)", body)
        if not tw or int(tw.group(3)):
            problems.append("%s +%s%%: TWED host-bound %s, want never same" % (name, factor, tw and tw.group(0)))
        un = re.search(r"unplanted rows: (\d+) faster/slower", body)
        if un and int(un.group(1)):
            problems.append("%s +%s%%: %s faster/slower on unplanted rows" % (name, factor, un.group(1)))

cal = re.search(r"one process a side with --calibration: (\d+) faster/slower in (\d+) comparisons", text)
if not cal or int(cal.group(1)) > 10:
    problems.append("calibration, one process a side: %s, want at most 10 false verdicts"
                    % (cal.group(0) if cal else "missing"))
finish(problems)
