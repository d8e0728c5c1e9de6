#define _POSIX_C_SOURCE 200809L
/* Gomoku in the Mist, a planted submission for `gomoku-mist mark`:
 * prints `Invalid!` for ever at end of input (the loop of a
 * program that ignores what its read returns), otherwise correct. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SIZE 19
#define KEPT 16

static char board[SIZE + 1][SIZE + 1]; /* [column][row], from 1: 0, 'B', 'W' */
static char history[SIZE * SIZE * 3 + 1];
static size_t history_len;
static int stones;
static char turn = 'B';
static int cx = 10, cy = 10; /* the centre of the hole */

static int is_space(int c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int count(int x, int y, int dx, int dy) {
    int n = 0;
    for (x += dx, y += dy; x >= 1 && x <= SIZE && y >= 1 && y <= SIZE && board[x][y] == turn;
         x += dx, y += dy)
        n++;
    return n;
}

static int wins(int x, int y) {
    static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    for (int d = 0; d < 4; d++)
        if (1 + count(x, y, dirs[d][0], dirs[d][1]) + count(x, y, -dirs[d][0], -dirs[d][1]) >= 5)
            return 1;
    return 0;
}

static int end(const char *first) {
    printf("%s\n%s\nThank you for playing!\n", first, history);
    return 0;
}

/* A point: a letter A..S, then 1..19 without sign or leading zero. */
static int point(const char *p, size_t len, int *x, int *y) {
    if (len < 2 || len > 3 || p[0] < 'A' || p[0] > 'S' || p[1] < '1' || p[1] > '9')
        return 0;
    int row = p[1] - '0';
    if (len == 3) {
        if (p[2] < '0' || p[2] > '9')
            return 0;
        row = row * 10 + (p[2] - '0');
    }
    if (row > SIZE)
        return 0;
    *x = p[0] - 'A' + 1;
    *y = row;
    return 1;
}

static void view(void) {
    printf("%c%d,", 'A' + cx - 1, cy);
    for (int y = cy + 3; y >= cy - 3; y--)
        for (int x = cx - 3; x <= cx + 3; x++) {
            char c = 'x';
            if (x >= 1 && x <= SIZE && y >= 1 && y <= SIZE)
                c = board[x][y] == 'B' ? '#' : board[x][y] == 'W' ? 'o' : '.';
            putchar(c);
        }
    putchar('\n');
}

int main(void) {
    char line[KEPT];
    for (;;) {
        size_t len = 0;
        int c, spaced = 0; /* whitespace after `place ` */
        while ((c = getchar()) != EOF && c != '\n') {
            if (len < KEPT)
                line[len] = (char)c;
            if (len >= 6 && is_space(c))
                spaced = 1;
            len++;
        }
        if (c == EOF && len == 0)
            for (;;)
                puts("Invalid!"); /* loops at end of input */
#define IS(word) (len == strlen(word) && memcmp(line, word, len) == 0)
        if (IS("who")) {
            printf("%c\n", turn);
        } else if (IS("term")) {
            return 1;
        } else if (IS("resign")) {
            return end(turn == 'B' ? "White wins!" : "Black wins!");
        } else if (IS("view")) {
            view();
        } else if (IS("history")) {
            printf("%s\n", history);
        } else if (len > 6 && memcmp(line, "place ", 6) == 0 && !spaced) {
            int x, y;
            if (!point(line + 6, len - 6, &x, &y)) {
                puts("Invalid coordinate");
            } else if (board[x][y]) {
                puts("Occupied coordinate");
            } else {
                board[x][y] = turn;
                stones++;
                history_len += (size_t)sprintf(history + history_len, "%c%d", 'A' + x - 1, y);
                cx = 1 + (5 * x * x + 3 * x + 4) % SIZE;
                cy = 1 + (4 * y * y + 2 * y - 4) % SIZE;
                if (wins(x, y))
                    return end(turn == 'B' ? "Black wins!" : "White wins!");
                if (stones == SIZE * SIZE)
                    return end("Wow, a tie!");
                turn = turn == 'B' ? 'W' : 'B';
            }
        } else {
            puts("Invalid!");
        }
        if (c == EOF)
            for (;;)
                puts("Invalid!");
    }
}
