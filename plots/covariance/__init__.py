"""The covariance study's figures and report section (plots/README.md)."""
