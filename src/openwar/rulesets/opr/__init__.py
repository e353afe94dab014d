"""One Page Fantasy, Sigmar rules v3.2.0."""
