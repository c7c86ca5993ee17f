//! `HRESULT`: the status code every create call returns.

/// A Windows `HRESULT`: bit 31 set means failure.
///
/// Displayed as its symbolic name and value, `E_INVALIDARG (0x80070057)`; a value
/// without a name here shows as `HRESULT 0x........`.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HResult(pub u32);

impl HResult {
    /// The call succeeded and created its object.
    pub const S_OK: HResult = HResult(0);
    /// The call succeeded without creating anything: the create calls return it when
    /// the out parameter is `NULL` and every other parameter passed validation.
    pub const S_FALSE: HResult = HResult(1);
    /// An argument is invalid: for the create calls, the bytecode is refused.
    pub const E_INVALIDARG: HResult = HResult(0x8007_0057);
    /// Not enough memory to create the object.
    pub const E_OUTOFMEMORY: HResult = HResult(0x8007_000E);
    /// Unspecified failure.
    pub const E_FAIL: HResult = HResult(0x8000_4005);
    /// Not implemented.
    pub const E_NOTIMPL: HResult = HResult(0x8000_4001);
    /// The device or driver does not support the request.
    pub const DXGI_ERROR_UNSUPPORTED: HResult = HResult(0x887A_0004);

    /// Every named value, with its name.
    pub const NAMED: [(HResult, &'static str); 7] = [
        (HResult::S_OK, "S_OK"),
        (HResult::S_FALSE, "S_FALSE"),
        (HResult::E_INVALIDARG, "E_INVALIDARG"),
        (HResult::E_OUTOFMEMORY, "E_OUTOFMEMORY"),
        (HResult::E_FAIL, "E_FAIL"),
        (HResult::E_NOTIMPL, "E_NOTIMPL"),
        (HResult::DXGI_ERROR_UNSUPPORTED, "DXGI_ERROR_UNSUPPORTED"),
    ];

    /// `SUCCEEDED(hr)`: the severity bit is clear (`S_OK` and `S_FALSE` both succeed).
    pub const fn succeeded(self) -> bool {
        (self.0 as i32) >= 0
    }

    /// `FAILED(hr)`: the severity bit is set.
    pub const fn failed(self) -> bool {
        !self.succeeded()
    }

    /// The value as the signed `HRESULT` of the C headers.
    pub const fn as_i32(self) -> i32 {
        self.0 as i32
    }

    /// From the signed `HRESULT` of the C headers.
    pub const fn from_i32(value: i32) -> HResult {
        HResult(value as u32)
    }

    /// The symbolic name, for the values named here.
    pub fn name(self) -> Option<&'static str> {
        HResult::NAMED.iter().find(|(v, _)| *v == self).map(|(_, n)| *n)
    }
}

impl std::fmt::Display for HResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.name() {
            Some(name) => write!(f, "{name} ({:#010x})", self.0),
            None => write!(f, "HRESULT {:#010x}", self.0),
        }
    }
}

impl std::fmt::Debug for HResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

impl From<HResult> for u32 {
    fn from(hr: HResult) -> u32 {
        hr.0
    }
}

impl From<HResult> for i32 {
    fn from(hr: HResult) -> i32 {
        hr.as_i32()
    }
}

/// [`HResult::S_OK`].
pub const S_OK: HResult = HResult::S_OK;
/// [`HResult::S_FALSE`].
pub const S_FALSE: HResult = HResult::S_FALSE;
/// [`HResult::E_INVALIDARG`].
pub const E_INVALIDARG: HResult = HResult::E_INVALIDARG;
/// [`HResult::E_OUTOFMEMORY`].
pub const E_OUTOFMEMORY: HResult = HResult::E_OUTOFMEMORY;
/// [`HResult::E_FAIL`].
pub const E_FAIL: HResult = HResult::E_FAIL;
/// [`HResult::E_NOTIMPL`].
pub const E_NOTIMPL: HResult = HResult::E_NOTIMPL;
/// [`HResult::DXGI_ERROR_UNSUPPORTED`].
pub const DXGI_ERROR_UNSUPPORTED: HResult = HResult::DXGI_ERROR_UNSUPPORTED;
