"""The dtw study's peers (peers/README.md)."""
