//! The analytical model of SCI Appendix A (being written).
