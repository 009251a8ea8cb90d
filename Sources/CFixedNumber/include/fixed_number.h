#ifndef FEEDSIM_FIXED_NUMBER_H
#define FEEDSIM_FIXED_NUMBER_H

#include <stddef.h>

/// Writes `value` with exactly `decimals` digits after the point into
/// `buffer` (at most `size` bytes, the terminating NUL included), as
/// printf's `%.*f` does in the C locale. Returns the length the whole text
/// needs, without the NUL: the text was cut when that is `size` or more.
/// Swift cannot call snprintf itself (it is variadic).
int feedsim_format_fixed(char *buffer, size_t size, double value, int decimals);

/// Writes `value` with `digits` significant digits, as printf's `%.*g`
/// does in the C locale (trailing zeros dropped, an exponent for very large
/// or small values), with the same buffer and return as above.
int feedsim_format_significant(char *buffer, size_t size, double value, int digits);

#endif
