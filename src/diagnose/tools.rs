//! The tool names hosts send live with the funnel that matches them
//! ([`crate::select::tools`]); kept here under their old path for doctor's
//! checks.

pub use crate::select::tools::*;
