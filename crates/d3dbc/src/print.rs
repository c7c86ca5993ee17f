//! Listing printer (owned by another engineer).
