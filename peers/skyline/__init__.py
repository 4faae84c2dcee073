"""The skyline study's peers (peers/README.md)."""
