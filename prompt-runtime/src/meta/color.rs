//! The `color` key: a `#rrggbb` color.

use std::fmt;

/// A `#rrggbb` color. Stored as its three bytes, so `#00BCD4` and `#00bcd4` are the same
/// color and both display as `#00bcd4` (lowercase).
///
/// ```
/// use promptic::Color;
///
/// const CYAN: Color = Color::rgb(0x00, 0xbc, 0xd4);
/// assert_eq!(Color::parse("#00BCD4"), Some(CYAN));
/// assert_eq!(CYAN.to_string(), "#00bcd4");
/// assert_eq!(Color::parse("blue"), None);
/// assert_eq!(Color::parse("#abc"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Color {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
}

impl Color {
    /// `#6c757d`, the grey solstone shows a prompt without a `color` in.
    pub const DEFAULT: Color = Color::rgb(0x6c, 0x75, 0x7d);

    /// A color from its red, green and blue bytes.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Color {
        Color { r, g, b }
    }

    /// Parses `#rrggbb`: a `#` and exactly six hex digits, either case. Nothing else (no
    /// `#rgb`, no names, no surrounding spaces).
    ///
    /// ```
    /// use promptic::Color;
    ///
    /// const GREEN: Option<Color> = Color::parse("#4caf50");
    /// assert_eq!(GREEN, Some(Color::rgb(0x4c, 0xaf, 0x50)));
    /// assert_eq!(Color::parse("4caf50"), None);
    /// ```
    pub const fn parse(text: &str) -> Option<Color> {
        let bytes = text.as_bytes();
        if bytes.len() != 7 || bytes[0] != b'#' {
            return None;
        }
        let (Some(r), Some(g), Some(b)) =
            (hex_byte(bytes, 1), hex_byte(bytes, 3), hex_byte(bytes, 5))
        else {
            return None;
        };
        Some(Color { r, g, b })
    }
}

const fn hex_byte(bytes: &[u8], at: usize) -> Option<u8> {
    match (hex_digit(bytes[at]), hex_digit(bytes[at + 1])) {
        (Some(high), Some(low)) => Some(high * 16 + low),
        _ => None,
    }
}

const fn hex_digit(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

impl Default for Color {
    fn default() -> Self {
        Color::DEFAULT
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }
}
