//! Listing parser / assembler (owned by another engineer).
