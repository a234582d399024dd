//! Hot reload (written below).
