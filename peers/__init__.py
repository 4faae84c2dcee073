"""Other people's libraries timed on ladder's data, a subpackage per study, a module per peer.
Run one as a module from the folder that holds this one:
`python3 -m peers.eed.stringzilla CONFIG --out FILE`."""
