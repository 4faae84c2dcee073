// Keeps the test-study library valid when tests/studies/ holds no study.
