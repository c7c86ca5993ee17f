//! SM4/5 tokenized program.
