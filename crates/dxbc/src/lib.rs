//! The DXBC shader container.
