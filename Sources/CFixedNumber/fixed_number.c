#include "fixed_number.h"

#include <stdio.h>

int feedsim_format_fixed(char *buffer, size_t size, double value, int decimals) {
    return snprintf(buffer, size, "%.*f", decimals, value);
}

int feedsim_format_significant(char *buffer, size_t size, double value, int digits) {
    return snprintf(buffer, size, "%.*g", digits, value);
}
