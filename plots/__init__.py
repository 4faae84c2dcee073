"""Figures and REPORT.md from ladder results files: the reader (results), the ladder of any
study, each study's figures and report section (a subpackage per study). Run its scripts as
modules from the folder that holds this one: `python3 -m plots.draw_all RESULTS.json`."""
