/* A hostile submission for `gomoku-mist mark`: it asks the compiler to
 * include a device that never ends, so that a compiler without limits
 * would read it until the machine's memory is gone. */
#include "/dev/zero"

int main(void) {
    return 0;
}
