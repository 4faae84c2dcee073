"""The eed study's peers (peers/README.md)."""
