"""The twed study's peers (peers/README.md)."""
