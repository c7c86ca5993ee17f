//! Debug information (`DBUG` comment block; owned by another engineer).
