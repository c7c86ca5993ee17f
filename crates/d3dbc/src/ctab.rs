//! The constant table (`CTAB` comment block). (Being written.)
