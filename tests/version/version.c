/* SPDX-License-Identifier: MIT */
/* Prints the version vksort.h gives a C program: MAJOR.MINOR.PATCH (tests/version/check.cmake). */
#include <vksort/vksort.h>

#include <stdio.h>

/* The macros must be integers that the preprocessor can compare, as a user's #if does. */
#if !defined(VKSORT_VERSION_MAJOR) || !defined(VKSORT_VERSION_MINOR) || !defined(VKSORT_VERSION_PATCH)
#error "vksort.h does not define VKSORT_VERSION_MAJOR, VKSORT_VERSION_MINOR and VKSORT_VERSION_PATCH"
#elif VKSORT_VERSION_MAJOR < 0 || VKSORT_VERSION_MINOR < 0 || VKSORT_VERSION_PATCH < 0
#error "a VKSORT_VERSION_* macro is negative"
#endif

int main(void) {
    printf("%d.%d.%d\n", VKSORT_VERSION_MAJOR, VKSORT_VERSION_MINOR, VKSORT_VERSION_PATCH);
    return 0;
}
