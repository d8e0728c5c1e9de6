/* A header beyond the scaffold's gitm.c: the restriction forbids it. */
#define BOARD_H 1
