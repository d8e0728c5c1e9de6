#define _POSIX_C_SOURCE 200809L
/* A hostile submission for `gomoku-mist mark`: starts 100 processes, each
 * leaving its group (setsid) to sleep for five minutes, then waits. */
#include <unistd.h>

int main(void) {
    for (int i = 0; i < 100; i++) {
        if (fork() == 0) {
            setsid();
            sleep(300);
            return 0;
        }
    }
    pause();
    return 0;
}
