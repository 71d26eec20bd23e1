/* The block-RAM board's search, compiled: host/hwsearch.py's hw_search with board="track" (no
 * research tuning), node for node, and the rules and frontier list it plays on
 * (host/position.py, host/trackorder.py, host/trackeval.py, host/movetable.py).
 *
 * The Python modules are the specification; this file follows them statement by statement so
 * that a test can compare the two on the same positions (the move, score, depth and nodes).
 * It exists for speed: a series of games at a real board's nodes a move (millions) is out of
 * reach of the Python model. Built and loaded by host/fastmodel.py (one shared library, no
 * Python API: plain C functions called through ctypes).
 *
 * Research options (Searcher.research, the RESEARCH_* flags; 0 is the board's search): the
 * newest-first order and the cut are the Python model's too (host/hwsearch.py, held node for
 * node); the others are this file's alone, to measure candidates at a real board's nodes.
 *
 * Cells are (x, y) on a 256 x 256 grid around the first tile (x, y in -100 .. 100): a game
 * the model can play fits a torus of at most 64 x 64, so its tiles never come near the grid's
 * edge. An end of a track is cell * 4 + side (the side it leaves its tile by, N E S W). */

#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#define GRID 256
#define CELLS (GRID * GRID)
#define REACH 100 /* the largest |x| or |y| a tile may have (host/fastmodel.py: REACH) */
#define MAX_TURNS 8192 /* host/fastmodel.py: MAX_TURNS */
#define MAX_TILES 16384 /* host/fastmodel.py: MAX_TILES */
#define MAX_CHANGES (MAX_TILES * 12)
#define MAX_FRONTIER (MAX_TILES * 4)
#define MAX_PLY 64
#define CAND_STACK (1 << 17)
#define MAX_ENGINES 32
#define ENGINE_STACK (1 << 20)

#define WIN 1000
#define MATE_BOUND (WIN - 100)
#define INFINITY_SCORE 2000

/* host/trackeval.py */
#define OWN_ATTACK 500
#define LOST (-500)
#define ATTACK_WEIGHT 150
#define TEMPO 20
#define CLAMP 400
static const int LOOP_WEIGHTS[4][3] = {{60, 40, 10}, {40, 30, 8}, {20, 12, 4}, {8, 5, 2}};

/* host/movetable.py */
#define KEY_MULTIPLIER 0x9E3779B1ULL
#define KEY_SHIFT 15
#define KEY_HIGH_MULTIPLIER 0x85EBULL
#define KEY_HIGH_SHIFT 23
enum { EXACT, LOWER, UPPER };

enum { BLACK = 0, WHITE = 1 };
enum { LOOP = 1, LINE = 2 };
#define NONE (-1)
#define DEAD (-1)

static const int DX[4] = {0, 1, 0, -1}, DY[4] = {-1, 0, 1, 0};
static const int STEP[4] = {-GRID, 1, GRID, -1};
/* Symbol.variants (white-first, black-first) for + / \ */
static const int VARIANTS[3][2] = {{0x5, 0xA}, {0x9, 0x6}, {0x3, 0xC}};

static int cell_of(int x, int y) { return ((y + 128) & 255) << 8 | ((x + 128) & 255); }
static int cell_x(int c) { return (c & 255) - 128; }
static int cell_y(int c) { return (c >> 8) - 128; }

static int FORCED[16][16];    /* a tile's mask, 0 (not forced) or DEAD */
static int FIT[16][16][3];    /* the tile of a symbol that fits, or 0 */
static int EXIT[16][4];       /* the other side of the track entering a tile by a side */
static int TILE_NUMBER[16];   /* the tile's place in host/tiles.py's Tile */
static int tables_ready;

static int popcount4(int v) { return (v & 1) + (v >> 1 & 1) + (v >> 2 & 1) + (v >> 3 & 1); }

static void make_tables(void) {
    static const int order[6] = {0x5, 0xA, 0x9, 0x6, 0x3, 0xC};
    for (int k = 0; k < 16; k++)
        for (int w = 0; w < 16; w++) {
            int code = 0;
            if (!(w & ~k)) {
                int whites = popcount4(w), blacks = popcount4(k & ~w);
                if (whites >= 3 || blacks >= 3) code = DEAD;
                else if (whites == 2) code = w;
                else if (blacks == 2) code = (k & ~w) ^ 0xF;
            }
            FORCED[k][w] = code;
            for (int s = 0; s < 3; s++) {
                FIT[k][w][s] = 0;
                if (w & ~k) continue;
                for (int v = 0; v < 2; v++)
                    if ((VARIANTS[s][v] & k) == w) {
                        FIT[k][w][s] = VARIANTS[s][v];
                        break;
                    }
            }
        }
    for (int n = 0; n < 6; n++) {
        int t = order[n];
        TILE_NUMBER[t] = n;
        for (int d = 0; d < 4; d++)
            for (int e = 0; e < 4; e++)
                if (e != d && ((t >> e) & 1) == ((t >> d) & 1)) EXIT[t][d] = e;
    }
    tables_ready = 1;
}

/* --- the position (host/position.py) and its frontier list (host/trackorder.py) ----------- */

typedef struct {
    int start, count;  /* its tiles in `placed` */
    int changes;       /* where its changes to the open-end map start */
    int had_box, box[4], outcome_before;
    int mover, outcome; /* outcome: 0, or (winner + 1) | reason << 2 */
    int frontier_mark;
} Turn;

typedef struct {
    int width, height; /* the torus (tile keys, distances, what fits) */
    uint8_t tile[CELLS];
    uint8_t flag[CELLS]; /* scratch: a turn's tiles still pending or waiting */
    int32_t ends[CELLS * 4];
    int32_t open_pos[CELLS * 4];
    int32_t open_list[MAX_TILES * 4];
    int n_open;
    int has_box, min_x, min_y, max_x, max_y;
    int outcome;
    uint64_t key;
    Turn turns[MAX_TURNS];
    int n_turns;
    int32_t placed[MAX_TILES];
    int n_placed;
    int32_t change_end[MAX_CHANGES], change_partner[MAX_CHANGES];
    int n_changes;
    int32_t frontier[MAX_FRONTIER];
    int n_frontier;
    int32_t stack[MAX_FRONTIER];
} Position;

/* v modulo m, in 0..m-1; a mask for a power of two (the boards' tori), without a division. */
static int mod(int v, int m) { return (m & (m - 1)) == 0 ? v & (m - 1) : ((v % m) + m) % m; }

static uint64_t tile_key(const Position *p, int c, int t) {
    uint64_t number = (uint64_t)((mod(cell_y(c), p->height) * 64 + mod(cell_x(c), p->width)) << 3
                                 | TILE_NUMBER[t]);
    uint64_t high = (number * KEY_HIGH_MULTIPLIER) >> KEY_HIGH_SHIFT;
    return ((number * KEY_MULTIPLIER) >> KEY_SHIFT) | high << 32;
}

static void put(Position *p, int c, int t) {
    p->tile[c] = (uint8_t)t;
    p->key ^= tile_key(p, c, t);
}

static void take(Position *p, int c) {
    p->key ^= tile_key(p, c, p->tile[c]);
    p->tile[c] = 0;
}

static void constraint(const Position *p, int c, int *known, int *white) {
    int k = 0, w = 0;
    for (int d = 0; d < 4; d++) {
        int t = p->tile[c + STEP[d]];
        if (t) {
            k |= 1 << d;
            w |= ((t >> (d ^ 2)) & 1) << d;
        }
    }
    *known = k;
    *white = w;
}

static void set_end(Position *p, int e, int partner) {
    if (p->ends[e] == NONE) {
        p->open_pos[e] = p->n_open;
        p->open_list[p->n_open++] = e;
    }
    p->ends[e] = partner;
}

static void del_end(Position *p, int e) {
    int i = p->open_pos[e], last = p->open_list[--p->n_open];
    p->open_list[i] = last;
    p->open_pos[last] = i;
    p->ends[e] = NONE;
}

static void change(Position *p, int e) {
    p->change_end[p->n_changes] = e;
    p->change_partner[p->n_changes++] = p->ends[e];
}

static int colour_at(const Position *p, int e) { return (p->tile[e >> 2] >> (e & 3)) & 1; }

/* Position._link: join the turn's tiles into the open-end map; the loops' colours (bits). */
static int link_tiles(Position *p, int start, int count) {
    int loops = 0;
    for (int i = start; i < start + count; i++) p->flag[p->placed[i]] = 1;
    for (int i = start; i < start + count; i++) {
        int c = p->placed[i], t = p->tile[c];
        p->flag[c] = 0;
        int e0 = EXIT[t][0], others[2], n_others = 0;
        for (int d = 1; d < 4; d++)
            if (d != e0) others[n_others++] = d;
        int tracks[2][2] = {{0, e0}, {others[0], others[1]}};
        for (int k = 0; k < 2; k++) {
            int far[2], joined[2], n_joined = 0;
            for (int j = 0; j < 2; j++) {
                int side = tracks[k][j], n = c + STEP[side];
                if (p->tile[n] && !p->flag[n]) {
                    int end = n * 4 + (side ^ 2), partner = p->ends[end];
                    change(p, end);
                    del_end(p, end);
                    joined[n_joined++] = end;
                    far[j] = partner;
                } else {
                    far[j] = c * 4 + side;
                }
            }
            int loop = 0;
            for (int j = 0; j < n_joined; j++) loop |= joined[j] == far[0];
            if (loop) {
                loops |= 1 << ((t >> tracks[k][0]) & 1);
                continue;
            }
            change(p, far[0]);
            change(p, far[1]);
            set_end(p, far[0], far[1]);
            set_end(p, far[1], far[0]);
        }
    }
    return loops;
}

static int is_line(const Position *p, int e1, int e2) {
    int x1 = cell_x(e1 >> 2), y1 = cell_y(e1 >> 2), d1 = e1 & 3;
    int x2 = cell_x(e2 >> 2), y2 = cell_y(e2 >> 2), d2 = e2 & 3;
    int width = p->max_x - p->min_x + 1, height = p->max_y - p->min_y + 1;
    if (width >= 8 && ((d1 == 3 && d2 == 1) || (d1 == 1 && d2 == 3))) {
        int west = d1 == 3 ? x1 : x2, east = d1 == 3 ? x2 : x1;
        if (west == p->min_x && east == p->max_x) return 1;
    }
    if (height >= 8 && ((d1 == 0 && d2 == 2) || (d1 == 2 && d2 == 0))) {
        int north = d1 == 0 ? y1 : y2, south = d1 == 0 ? y2 : y1;
        if (north == p->min_y && south == p->max_y) return 1;
    }
    return 0;
}

/* Position._judge */
static int judge(const Position *p, int changes, int loops, int mover) {
    int completed[2] = {loops & 1 ? LOOP : 0, loops & 2 ? LOOP : 0};
    int width = p->max_x - p->min_x + 1, height = p->max_y - p->min_y + 1;
    if (width >= 8 || height >= 8)
        for (int i = changes; i < p->n_changes; i++) {
            int end = p->change_end[i], partner = p->ends[end];
            if (partner == NONE || end > partner) continue;
            int colour = colour_at(p, end);
            if (!completed[colour] && is_line(p, end, partner)) completed[colour] = LINE;
        }
    if (completed[mover]) return (mover + 1) | completed[mover] << 2;
    if (completed[!mover]) return (!mover + 1) | completed[!mover] << 2;
    return 0;
}

static int forced_mask(int known, int white) {
    int whites = popcount4(known & white), blacks = popcount4(known & ~white & 0xF);
    return whites >= 2 || blacks >= 2;
}

/* TrackOrder._follow: the gateware's tile order for the turn, appending to the list. */
static void follow(Position *p, const Turn *turn) {
    for (int i = turn->start; i < turn->start + turn->count; i++) p->flag[p->placed[i]] = 1;
    int top = 0;
    p->stack[top++] = p->placed[turn->start];
    while (top) {
        int c = p->stack[--top];
        p->flag[c] = 0;
        int pushes[4], n_pushes = 0;
        for (int d = 0; d < 4; d++) {
            int n = c + STEP[d];
            if (p->tile[n] && !p->flag[n]) continue;
            int known = 0, white = 0;
            for (int e = 0; e < 4; e++) {
                int m = n + STEP[e], t = p->tile[m];
                if (!t || p->flag[m]) continue;
                known |= 1 << e;
                if ((t >> (e ^ 2)) & 1) white |= 1 << e;
            }
            int facing = ~(1 << (d ^ 2)) & 0xF;
            if (!(known & facing)) p->frontier[p->n_frontier++] = n;
            if (forced_mask(known, white) && !forced_mask(known & facing, white & facing))
                pushes[n_pushes++] = n;
        }
        for (int j = 0; j < n_pushes; j++) p->stack[top++] = pushes[j];
    }
    for (int i = turn->start; i < turn->start + turn->count; i++) p->flag[p->placed[i]] = 0;
}

static int turn_colour(const Position *p) { return p->n_turns % 2 == 0 ? WHITE : BLACK; }

/* Position.play (the unlimited game) and TrackOrder.play: 1 if played, 0 if illegal (then
 * nothing changed). */
static int play(Position *p, int x, int y, int symbol) {
    if (p->outcome) return 0;
    if (p->n_turns >= MAX_TURNS - 1 || p->n_placed >= MAX_TILES - 1 || x < -REACH ||
        x > REACH || y < -REACH || y > REACH)
        return 0;
    int c = cell_of(x, y), start = p->n_placed;
    if (!p->has_box) {
        if (x != 0 || y != 0 || symbol == 2) return 0;
        put(p, c, VARIANTS[symbol][0]);
        p->placed[p->n_placed++] = c;
    } else {
        if (p->tile[c]) return 0;
        int known, white;
        constraint(p, c, &known, &white);
        if (!known) return 0;
        int t = FIT[known][white][symbol];
        if (!t) return 0;
        put(p, c, t);
        p->placed[p->n_placed++] = c;
        for (int i = start; i < p->n_placed; i++) {
            int cc = p->placed[i];
            for (int d = 0; d < 4; d++) {
                int n = cc + STEP[d];
                if (p->tile[n]) continue;
                constraint(p, n, &known, &white);
                int code = FORCED[known][white];
                if (!code) continue;
                if (code == DEAD || p->n_placed >= MAX_TILES) {
                    while (p->n_placed > start) take(p, p->placed[--p->n_placed]);
                    return 0;
                }
                put(p, n, code);
                p->placed[p->n_placed++] = n;
            }
        }
    }
    Turn *turn = &p->turns[p->n_turns];
    turn->start = start;
    turn->count = p->n_placed - start;
    turn->mover = turn_colour(p);
    turn->changes = p->n_changes;
    turn->had_box = p->has_box;
    turn->box[0] = p->min_x, turn->box[1] = p->min_y, turn->box[2] = p->max_x;
    turn->box[3] = p->max_y;
    turn->outcome_before = p->outcome;
    int loops = link_tiles(p, start, turn->count);
    if (!p->has_box) {
        p->has_box = 1;
        p->min_x = p->max_x = x;
        p->min_y = p->max_y = y;
    } else {
        if (x < p->min_x) p->min_x = x;
        if (x > p->max_x) p->max_x = x;
        if (y < p->min_y) p->min_y = y;
        if (y > p->max_y) p->max_y = y;
    }
    turn->outcome = p->outcome = judge(p, turn->changes, loops, turn->mover);
    p->n_turns++;
    turn->frontier_mark = p->n_frontier;
    follow(p, turn);
    return 1;
}

/* TrackOrder.pop and Position.pop */
static void pop(Position *p) {
    Turn *turn = &p->turns[--p->n_turns];
    p->n_frontier = turn->frontier_mark;
    p->has_box = turn->had_box;
    p->min_x = turn->box[0], p->min_y = turn->box[1], p->max_x = turn->box[2];
    p->max_y = turn->box[3];
    p->outcome = turn->outcome_before;
    for (int i = p->n_changes - 1; i >= turn->changes; i--) {
        if (p->change_partner[i] == NONE) del_end(p, p->change_end[i]);
        else set_end(p, p->change_end[i], p->change_partner[i]);
    }
    p->n_changes = turn->changes;
    while (p->n_placed > turn->start) take(p, p->placed[--p->n_placed]);
}

/* TrackOrder.compact */
static void compact(Position *p) {
    int n = 0;
    for (int i = 0; i < p->n_frontier; i++)
        if (!p->tile[p->frontier[i]]) p->frontier[n++] = p->frontier[i];
    p->n_frontier = n;
}

static Position *new_position(int width, int height) {
    if (!tables_ready) make_tables();
    Position *p = calloc(1, sizeof(Position));
    if (!p) return NULL;
    p->width = width;
    p->height = height;
    memset(p->ends, 0xFF, sizeof p->ends);
    return p;
}

/* The position after `n` moves (x, y, symbol: the played tile's cell and its symbol), with the
 * frontier list compacted as at a search's root; NULL when a move is illegal. */
static Position *replay(const int32_t *moves, int n, int width, int height) {
    Position *p = new_position(width, height);
    if (!p) return NULL;
    for (int i = 0; i < n; i++)
        if (!play(p, moves[3 * i], moves[3 * i + 1], moves[3 * i + 2])) {
            free(p);
            return NULL;
        }
    compact(p);
    return p;
}

/* --- the evaluation (host/trackeval.py) ------------------------------------------------------ */

static int signed_mod(int v, int size) {
    v = mod(v, size);
    return v >= size / 2 ? v - size : v;
}

/* Research options (model only; 0 is the gateware's search, node for node). */
#define RESEARCH_NEWEST 1 /* candidates from the newest frontier cell to the oldest */
#define RESEARCH_CUT 2    /* a move leaving the opponent an attack is lost (a mate in one) */
#define RESEARCH_DEEPER 4 /* the table's score also answers a search shallower than its own */
#define RESEARCH_FITTED 8 /* the quiet evaluation is the fitted weights' (fm_research_weights) */
#define RESEARCH_HALF 16  /* a move after which its mover holds an attack costs half a ply */
#define RESEARCH_REDUCE 32 /* a move far from the two turns before it: a ply shallower */
#define REDUCE_FAR 2       /* RESEARCH_REDUCE's "far": more cells than this outside each box */
#define RESEARCH_PVS 64    /* moves after a node's first searched with a null window first */
#define RESEARCH_SHAPES 128 /* the quiet evaluation: shapes of tracks and pairs (fm_shape_weights) */
#define RESEARCH_THREATS 256 /* a quiet horizon: the side to move may make a threat (threats()) */
#define RESEARCH_THREATS2 512 /* ... and, answered, a second (with RESEARCH_THREATS: a third) */
#define RESEARCH_THREAT_FAR 1024 /* threats also at the targets of tracks 3 apart (not only 2) */
#define RESEARCH_THREAT_DOUBLE 2048 /* only threats after which the side holds two attacks */

typedef struct {
    int attacks[2], potential[2];
    int pseudo[2]; /* research: KizuNa's pseudo-threats (pairs of 1-1 corners) */
    int kinds[2][12]; /* research: tracks per kind, 3 (distance - 1) + relation */
    int long_tracks[2]; /* research: tracks whose targets lie 6 or more apart in x or y */
} Features;

/* Research: a fitted evaluation's weights (fm_research_weights), used with RESEARCH_FITTED in
 * place of the loop potential, the tempo and the opponent's attacks' weight: per kind (index
 * 3 (distance - 1) + relation), the side to move's tracks (12), the opponent's (12); then the
 * opponent's attacks, the pseudo-threats (mine, theirs), the long tracks (mine, theirs), a
 * constant (the tempo). The board's own evaluation is the weights LOOP_WEIGHTS, -LOOP_WEIGHTS,
 * -ATTACK_WEIGHT, 0, 0, 0, 0, TEMPO. */
#define FITTED_WEIGHTS 30
static int fitted[FITTED_WEIGHTS];

void fm_research_weights(const int32_t *weights, int n) {
    for (int i = 0; i < FITTED_WEIGHTS; i++) fitted[i] = i < n ? weights[i] : 0;
}

#define MAX_CORNERS 64

static Features track_features(const Position *p) {
    Features f = {{0, 0}, {0, 0}, {0, 0}, {{0}}, {0, 0}};
    for (int i = 0; i < p->n_open; i++) {
        int e1 = p->open_list[i], e2 = p->ends[e1];
        if (e1 > e2) continue;
        int colour = colour_at(p, e1), d1 = e1 & 3, d2 = e2 & 3;
        int dx = cell_x(e1 >> 2) + DX[d1] - cell_x(e2 >> 2) - DX[d2];
        int dy = cell_y(e1 >> 2) + DY[d1] - cell_y(e2 >> 2) - DY[d2];
        int distance = abs(signed_mod(dx, p->width)) + abs(signed_mod(dy, p->height));
        if (distance == 1) f.attacks[colour]++;
        if (distance >= 1 && distance <= 4) {
            int relation = d1 == d2 ? 0 : d1 == (d2 ^ 2) ? 2 : 1;
            f.potential[colour] += LOOP_WEIGHTS[distance - 1][relation];
            f.kinds[colour][3 * (distance - 1) + relation]++;
        }
        int sx = abs(signed_mod(dx, p->width)), sy = abs(signed_mod(dy, p->height));
        f.long_tracks[colour] += sx >= 6 || sy >= 6;
    }
    return f;
}

/* Research: the pairs of 1-1 corners (tracks with both open ends on one tile) of each colour
 * whose tiles are the same and a knight's move apart (KizuNa's pseudo-threat,
 * host/trackresearch.py's _pseudo_threats). */
static void pseudo_threats(const Position *p, Features *f) {
    int corners[2][MAX_CORNERS], n[2] = {0, 0};
    for (int i = 0; i < p->n_open; i++) {
        int e1 = p->open_list[i], e2 = p->ends[e1];
        if (e1 > e2 || e1 >> 2 != e2 >> 2) continue;
        int colour = colour_at(p, e1);
        if (n[colour] < MAX_CORNERS) corners[colour][n[colour]++] = e1 >> 2;
    }
    for (int colour = 0; colour < 2; colour++)
        for (int i = 0; i < n[colour]; i++)
            for (int j = 0; j < i; j++) {
                int a = corners[colour][i], b = corners[colour][j];
                int dx = signed_mod(cell_x(a) - cell_x(b), p->width);
                int dy = signed_mod(cell_y(a) - cell_y(b), p->height);
                f->pseudo[colour] += abs(dx * dy) == 2 && p->tile[a] == p->tile[b];
            }
}

/* Research (RESEARCH_SHAPES): the features KizuNa's evaluation weighs (its Board::updateEvalInfo,
 * docs/evaluation.md), counted from the side to move's view. A track's *front* cells are the
 * empty cells its two open ends face, its *back* cells the tiles they leave; differences are
 * taken on the torus (signed_mod) and their sizes capped at 3. Layout (SHAPE_FEATURES):
 *   0, 1      pseudo-threats: pairs of one colour's 1-1 corners (a curve's track, both ends open)
 *             on the same tile a knight's move apart; the side to move's, the other's
 *   2, 3      long tracks, once per axis: fronts at least 7 apart and within 2 of the box's span
 *             (the box's last column less its first); mine, theirs
 *   4 + 2s    a track of shape s: its fronts' |dx|, |dy|, its backs' |dx|, |dy|, 2 bits each
 *             from bit 0; the side to move's colour; 5 + 2s the other colour's
 *   516 + 2q  every pair of tracks of one colour, its ends matched both ways, gives two patterns
 *             q: a matched pair of fronts' |dx|, |dy| in bits 0-3, the other pair's in bits 4-7,
 *             the lesser of the two orders (so q does not depend on the order of the ends);
 *             mine; 517 + 2q the other colour's
 *   1028      a constant (always 1)
 * The value is the sum of fm_shape_weights's weights over these counts, less ATTACK_WEIGHT for
 * each of the opponent's attacks. */
#define SHAPE_FEATURES 1029
#define SHAPE_TRACKS 4
#define SHAPE_PAIRS 516
#define MAX_SHAPE_TRACKS 512 /* tracks walked: more than a game on a 64 x 64 torus has open */
#define CORNER_SHAPE 5 /* fronts 1 apart in x and in y, one back cell */
static int shape_weights[SHAPE_FEATURES];
/* Whether any pair of tracks or pseudo-threat weighs anything: without, shape_walk leaves out
 * its walk over pairs (the board files' table weighs the tracks alone), which adds nothing. */
static int shape_pairs_weighed;

void fm_shape_weights(const int32_t *weights, int n) {
    shape_pairs_weighed = 0;
    for (int i = 0; i < SHAPE_FEATURES; i++) {
        shape_weights[i] = i < n ? weights[i] : 0;
        if (shape_weights[i] && (i < 2 || (i >= SHAPE_PAIRS && i < SHAPE_FEATURES - 1)))
            shape_pairs_weighed = 1;
    }
}

static int capped(int v, int size) {
    v = abs(signed_mod(v, size));
    return v < 3 ? v : 3;
}

/* Walk the features of `p` for the side to move `side`: add each one's weight to the sum returned
 * and, when `counts` is given, count it there too. */
static int shape_walk(const Position *p, int side, const Features *f, int32_t *counts) {
    int fx[MAX_SHAPE_TRACKS][2], fy[MAX_SHAPE_TRACKS][2], colour[MAX_SHAPE_TRACKS], n = 0;
    int corner[MAX_SHAPE_TRACKS]; /* a 1-1 corner's tile cell, or NONE */
    int sum = 0, index;
#define COUNT(i) (index = (i), sum += shape_weights[index], counts ? counts[index]++ : 0)
    COUNT(SHAPE_FEATURES - 1);
    int box_w = p->max_x - p->min_x, box_h = p->max_y - p->min_y;
    for (int i = 0; i < p->n_open && n < MAX_SHAPE_TRACKS; i++) {
        int e[2] = {p->open_list[i], p->ends[p->open_list[i]]};
        if (e[0] > e[1]) continue;
        int bx[2], by[2];
        for (int j = 0; j < 2; j++) {
            bx[j] = cell_x(e[j] >> 2), by[j] = cell_y(e[j] >> 2);
            fx[n][j] = bx[j] + DX[e[j] & 3], fy[n][j] = by[j] + DY[e[j] & 3];
        }
        colour[n] = colour_at(p, e[0]);
        int other = colour[n] != side;
        int sx = abs(signed_mod(fx[n][1] - fx[n][0], p->width));
        int sy = abs(signed_mod(fy[n][1] - fy[n][0], p->height));
        if ((9 - sx > box_w - sx ? 9 - sx : box_w - sx) <= 2) COUNT(2 + other);
        if ((9 - sy > box_h - sy ? 9 - sy : box_h - sy) <= 2) COUNT(2 + other);
        int shape = (sx < 3 ? sx : 3) | (sy < 3 ? sy : 3) << 2;
        shape |= capped(bx[1] - bx[0], p->width) << 4 | capped(by[1] - by[0], p->height) << 6;
        COUNT(SHAPE_TRACKS + 2 * shape + other);
        corner[n] = shape == CORNER_SHAPE ? e[0] >> 2 : NONE;
        for (int m = 0; m < n && (counts || shape_pairs_weighed); m++) {
            if (colour[m] != colour[n]) continue;
            for (int swap = 0; swap < 2; swap++) {
                int q[2];
                for (int j = 0; j < 2; j++) {
                    int k = j ^ swap;
                    q[j] = capped(fx[n][j] - fx[m][k], p->width);
                    q[j] |= capped(fy[n][j] - fy[m][k], p->height) << 2;
                }
                COUNT(SHAPE_PAIRS + 2 * (q[0] < q[1] ? q[0] | q[1] << 4 : q[1] | q[0] << 4) + other);
            }
            if (corner[n] != NONE && corner[m] != NONE && p->tile[corner[n]] == p->tile[corner[m]]) {
                int dx = signed_mod(cell_x(corner[n]) - cell_x(corner[m]), p->width);
                int dy = signed_mod(cell_y(corner[n]) - cell_y(corner[m]), p->height);
                if (abs(dx * dy) == 2) COUNT(other);
            }
        }
        n++;
    }
#undef COUNT
    return sum - ATTACK_WEIGHT * f->attacks[!side];
}

static int track_score(const Position *p, const Features *f, int turn, int research) {
    int mine = turn, theirs = !turn;
    if (f->attacks[mine] > 0) return OWN_ATTACK;
    if (f->attacks[theirs] >= 2) return LOST;
    if (research & RESEARCH_SHAPES) {
        int value = shape_walk(p, turn, f, NULL);
        return value < -CLAMP ? -CLAMP : value > CLAMP ? CLAMP : value;
    }
    int value = f->potential[mine] - f->potential[theirs] + TEMPO;
    if (research & RESEARCH_FITTED) {
        value = fitted[29];
        for (int k = 0; k < 12; k++)
            value += fitted[k] * f->kinds[mine][k] + fitted[12 + k] * f->kinds[theirs][k];
        value += fitted[24] * f->attacks[theirs] + fitted[25] * f->pseudo[mine];
        value += fitted[26] * f->pseudo[theirs] + fitted[27] * f->long_tracks[mine];
        value += fitted[28] * f->long_tracks[theirs];
        return value < -CLAMP ? -CLAMP : value > CLAMP ? CLAMP : value;
    }
    value -= ATTACK_WEIGHT * f->attacks[theirs];
    return value < -CLAMP ? -CLAMP : value > CLAMP ? CLAMP : value;
}

/* --- the table of best moves (host/movetable.py) ------------------------------------------- */

typedef struct {
    int valid;
    uint64_t tag;
    int move, left, value, kind, turn;
} Entry;

typedef struct {
    uint64_t slot, tag;
    Entry held; /* the entry read on entry (a copy: a node decides by what it read) */
} Probe;

static int moved(int value, int plies) {
    if (value >= MATE_BOUND) return value + plies;
    if (value <= -MATE_BOUND) return value - plies;
    return value;
}

/* --- the search (host/hwsearch.py, board="track") ---------------------------------------- */

typedef struct {
    int key, cell, symbol;
} Candidate;

typedef struct {
    Position *p;
    int width, height, evaluation;
    int extensions; /* host/hweval.py's MAX_EXTENSIONS, or (research) a tuning's */
    int research;   /* research options (RESEARCH_*), model only: 0 is the gateware's search */
    int saved[MAX_PLY]; /* RESEARCH_HALF: the half plies saved on the path to each ply */
    int64_t budget, nodes;
    int killers[MAX_PLY];
    Entry *table;
    uint64_t entries;
    int tag_bits, keep_deeper, scores;
    Candidate *cands;
    int n_cands;
    int first_legal, first_legal_cell, first_legal_symbol;
    int reply; /* the best move (a key) of the last node at ply 1 to return; NONE: none */
    jmp_buf stop;
    struct Engine *engine; /* in the many-engine search: the engine this is (yields) */
} Searcher;

static void yield_node(struct Engine *engine, int node);

/* A candidate's key: its torus cell and symbol (the killers' and the table's moves). */
static int move_key(const Searcher *s, int c, int symbol) {
    return (mod(cell_y(c), s->height) << 8 | mod(cell_x(c), s->width)) << 2 | symbol;
}

static int fits(const Searcher *s, int c) {
    const Position *p = s->p;
    int x = cell_x(c), y = cell_y(c);
    int min_x = x < p->min_x ? x : p->min_x, max_x = x > p->max_x ? x : p->max_x;
    int min_y = y < p->min_y ? y : p->min_y, max_y = y > p->max_y ? y : p->max_y;
    return max_x - min_x + 3 <= s->width && max_y - min_y + 3 <= s->height;
}

/* _Searcher.play: 1 if played (a node), 0 if refused or illegal; stops on the budget. */
static int search_play(Searcher *s, int c, int symbol) {
    if (s->nodes == s->budget) longjmp(s->stop, 1);
    if (!fits(s, c)) return 0;
    if (!play(s->p, cell_x(c), cell_y(c), symbol)) return 0;
    s->nodes++;
    return 1;
}

/* _Searcher.moves: the candidates in list order, `first` (a key, or NONE) first; pushed on
 * the candidate stack. Returns how many. */
static int moves(Searcher *s, int first) {
    const Position *p = s->p;
    int base = s->n_cands, n = 0;
    Candidate *out = s->cands + base;
    int newest = s->research & RESEARCH_NEWEST;
    for (int pass = first == NONE ? 1 : 0; pass < 2; pass++)
        for (int j = 0; j < p->n_frontier; j++) {
            int c = p->frontier[newest ? p->n_frontier - 1 - j : j];
            if (p->tile[c]) continue;
            int known, white;
            constraint(p, c, &known, &white);
            for (int sym = 0; sym < 3; sym++) {
                if (!FIT[known][white][sym]) continue;
                int key = move_key(s, c, sym);
                if (pass == 0 ? key != first : key == first) continue;
                if (base + n >= CAND_STACK) abort();
                out[n++] = (Candidate){key, c, sym};
            }
        }
    s->n_cands += n;
    return n;
}

/* _Searcher.candidates: moves() with the budget's check before a first move that is none. */
static int candidates(Searcher *s, int first) {
    int base = s->n_cands, n = moves(s, first);
    if (first != NONE && (n == 0 || s->cands[base].key != first) && s->nodes == s->budget)
        longjmp(s->stop, 1);
    return n;
}

static int negamax(Searcher *s, int ply, int depth, int alpha, int beta);

/* Research (fm_exclude): root moves (keys, as move_key) the searches leave out, so that a
 * player can search again without a move a deeper search refuted. */
#define MAX_EXCLUDED 64
static int excluded[MAX_EXCLUDED], n_excluded;

void fm_exclude(const int32_t *keys, int n) {
    n_excluded = n < 0 ? 0 : n > MAX_EXCLUDED ? MAX_EXCLUDED : n;
    for (int i = 0; i < n_excluded; i++) excluded[i] = keys[i];
}

/* The root's `n` candidates (the candidate stack's first) without the excluded ones; how many
 * are left. */
static int drop_excluded(Searcher *s, int n) {
    int kept = 0;
    for (int i = 0; i < n; i++) {
        int out = 0;
        for (int j = 0; j < n_excluded; j++) out |= s->cands[i].key == excluded[j];
        if (!out) s->cands[kept++] = s->cands[i];
    }
    s->n_cands = kept;
    return kept;
}

/* _Searcher.reduction (research, RESEARCH_REDUCE; the Python model's TrackTuning.reduce_far =
 * REDUCE_FAR from ply 1): the plies the move just played at `ply` is searched shallower: 1 when
 * its cell lies more than REDUCE_FAR cells (in x or in y) outside the box of the tiles of each
 * of the two turns before it (KizuNa's "old line reduction", in a form a board could keep) and
 * at least 2 plies are left; else 0. */
static int reduction(const Searcher *s, int ply, int depth) {
    const Position *p = s->p;
    if (!(s->research & RESEARCH_REDUCE) || ply < 1 || depth - ply < 2 || p->n_turns < 3)
        return 0;
    int c = p->placed[p->turns[p->n_turns - 1].start], x = cell_x(c), y = cell_y(c);
    for (int back = 2; back <= 3; back++) {
        const Turn *t = &p->turns[p->n_turns - back];
        int min_x = REACH + 1, max_x = -REACH - 1, min_y = REACH + 1, max_y = -REACH - 1;
        for (int i = t->start; i < t->start + t->count; i++) {
            int tx = cell_x(p->placed[i]), ty = cell_y(p->placed[i]);
            if (tx < min_x) min_x = tx;
            if (tx > max_x) max_x = tx;
            if (ty < min_y) min_y = ty;
            if (ty > max_y) max_y = ty;
        }
        if (min_x - REDUCE_FAR <= x && x <= max_x + REDUCE_FAR && min_y - REDUCE_FAR <= y &&
            y <= max_y + REDUCE_FAR)
            return 0;
    }
    return 1;
}

/* _Searcher.leaf without a tuning: the value of the move just played, or NONE_VALUE when the
 * search goes on below it. */
#define NONE_VALUE (-100000)
/* The value of a game ended by the move `mover` just played at `ply`, from the mover's side. */
static int ended(const Position *p, int mover, int ply) {
    return (p->outcome & 3) - 1 == mover ? WIN - (ply + 1) : -(WIN - (ply + 1));
}

static int threats(Searcher *s, int ply, int levels, const Features *f, int alpha, int beta);
static int leaf(Searcher *s, int ply, int depth, int alpha, int beta) {
    Position *p = s->p;
    const Turn *turn = &p->turns[p->n_turns - 1];
    if (p->outcome) return ended(p, turn->mover, ply);
    int half = s->research & RESEARCH_HALF, reached = 2 * (ply + 1), side = turn_colour(p);
    Features f; /* walked once, when first needed */
    if (half) {
        f = track_features(p);
        s->saved[ply + 1] = s->saved[ply] + (f.attacks[turn->mover] > 0);
        reached -= s->saved[ply + 1];
        if (ply + 4 >= MAX_PLY) reached = 2 * (depth + s->extensions); /* the stack's end */
    }
    if (reached < 2 * depth) {
        if (!(s->research & RESEARCH_CUT) || !s->evaluation) return NONE_VALUE;
        if (!half) f = track_features(p); /* the side to move holds an attack: the mover lost */
        return f.attacks[side] > 0 ? -(WIN - (ply + 2)) : NONE_VALUE;
    }
    if (!s->evaluation) return 0;
    if (!half) f = track_features(p);
    if (s->research & RESEARCH_FITTED) pseudo_threats(p, &f);
    if ((s->research & RESEARCH_CUT) && f.attacks[side] > 0) return -(WIN - (ply + 2));
    if (f.attacks[!side] > 0 && reached < 2 * (depth + s->extensions)) return NONE_VALUE;
    int levels = s->research >> 8 & 3;
    if (levels && !f.attacks[0] && !f.attacks[1])
        return -threats(s, ply + 1, levels, &f, -beta, -alpha);
    return -track_score(p, &f, side, s->research);
}

/* Research (RESEARCH_THREATS): a threat search at a quiet horizon (neither side holds an attack),
 * in place of its evaluation. The side to move stands on the evaluation or makes a *threat*: a
 * move at a target of one of its tracks whose targets lie 2 apart (3 too with
 * RESEARCH_THREAT_FAR; a cell the board can tell from its four edges and their partners without
 * playing it) after which it holds an attack and the opponent none. Every move of the opponent
 * answers it, one node each: an answer that leaves the attack standing is lost (the cut), one
 * that ends the game scores as ever, one after which the threatening side has a further threat
 * (`levels` - 1 left) searches it, the others are evaluated. A threat every answer of which is
 * lost is a won position. */
static int answers(Searcher *s, int ply, int levels, int alpha, int beta);

static int threat_targets(const Position *p, int side, int far, int *cells) {
    int n = 0;
    for (int i = 0; i < p->n_open && n < 62; i++) {
        int e1 = p->open_list[i], e2 = p->ends[e1];
        if (e1 > e2 || colour_at(p, e1) != side) continue;
        int x1 = cell_x(e1 >> 2) + DX[e1 & 3], y1 = cell_y(e1 >> 2) + DY[e1 & 3];
        int x2 = cell_x(e2 >> 2) + DX[e2 & 3], y2 = cell_y(e2 >> 2) + DY[e2 & 3];
        int distance = abs(signed_mod(x1 - x2, p->width)) + abs(signed_mod(y1 - y2, p->height));
        if (distance != 2 && !(far && distance == 3)) continue;
        cells[n++] = cell_of(x1, y1);
        cells[n++] = cell_of(x2, y2);
    }
    return n;
}

static int threats(Searcher *s, int ply, int levels, const Features *f, int alpha, int beta) {
    Position *p = s->p;
    int side = turn_colour(p), best = track_score(p, f, side, s->research);
    if (best >= beta) return best;
    if (best > alpha) alpha = best;
    int targets[64];
    int n_targets = threat_targets(p, side, s->research & RESEARCH_THREAT_FAR, targets);
    if (!n_targets) return best;
    int base = s->n_cands, n = moves(s, NONE);
    const Candidate *cands = s->cands + base;
    for (int i = 0; i < n && alpha < beta; i++) {
        int target = 0;
        for (int j = 0; j < n_targets && !target; j++) target = targets[j] == cands[i].cell;
        if (!target || !search_play(s, cands[i].cell, cands[i].symbol)) continue;
        if (s->engine) yield_node(s->engine, 1);
        int v = NONE_VALUE;
        if (p->outcome) {
            v = ended(p, side, ply);
        } else {
            Features after = track_features(p);
            int least = s->research & RESEARCH_THREAT_DOUBLE ? 2 : 1;
            if (after.attacks[side] >= least && after.attacks[!side] == 0)
                v = -answers(s, ply + 1, levels, -beta, -alpha);
        }
        pop(p);
        if (v > best) best = v;
        if (v > alpha) alpha = v;
    }
    s->n_cands = base;
    return best;
}

static int answers(Searcher *s, int ply, int levels, int alpha, int beta) {
    Position *p = s->p;
    int side = turn_colour(p), best = -INFINITY_SCORE;
    int base = s->n_cands, n = moves(s, NONE);
    const Candidate *cands = s->cands + base;
    for (int i = 0; i < n && alpha < beta; i++) {
        if (!search_play(s, cands[i].cell, cands[i].symbol)) continue;
        if (s->engine) yield_node(s->engine, 1);
        int v;
        if (p->outcome) {
            v = ended(p, side, ply);
        } else {
            Features after = track_features(p);
            if (after.attacks[!side] > 0)
                v = -(WIN - (ply + 2)); /* the attack stands: lost (the cut) */
            else if (levels > 1 && after.attacks[side] == 0)
                v = -threats(s, ply + 1, levels - 1, &after, -beta, -alpha);
            else
                v = -track_score(p, &after, !side, s->research);
        }
        pop(p);
        if (v > best) best = v;
        if (v > alpha) alpha = v;
    }
    s->n_cands = base;
    return best > -INFINITY_SCORE ? best : 0;
}

/* _Searcher.value (no tuning): the move just played at `ply`, from its mover's side. */
static int value(Searcher *s, int ply, int depth, int alpha, int beta) {
    int v = leaf(s, ply, depth, alpha, beta);
    return v != NONE_VALUE ? v : -negamax(s, ply + 1, depth, -beta, -alpha);
}

/* Research (RESEARCH_PVS): `value` of a move after the node's first (`later`) searched with a
 * null window at alpha first, and again with the whole window only when it beats alpha (the
 * principal variation search); the same minimax value at the root. */
static int pv_value(Searcher *s, int ply, int depth, int alpha, int beta, int later) {
    if (!(s->research & RESEARCH_PVS) || !later || beta - alpha <= 1)
        return value(s, ply, depth, alpha, beta);
    int v = value(s, ply, depth, alpha, alpha + 1);
    return v > alpha && v < beta ? value(s, ply, depth, alpha, beta) : v;
}

/* _Searcher.enter: the node at `ply`, `left` plies deep, with the window (alpha, beta) is
 * entered: its lookup in the table (`probe`), and 1 with `*settled` when the table's score
 * settles it; else 0 with `*first`, the move to try first (the table's, else the killer). */
static int enter_node(Searcher *s, int ply, int left, int alpha, int beta, Probe *probe,
                      int *settled, int *first) {
    const Position *p = s->p;
    *first = s->killers[ply];
    if (!s->table) return 0;
    probe->slot = p->key % s->entries;
    probe->tag = p->key / s->entries % (1ULL << s->tag_bits);
    probe->held = s->table[probe->slot];
    const Entry *held = &probe->held;
    int ours = held->valid && held->tag == probe->tag;
    int deep_enough = s->research & RESEARCH_DEEPER ? held->left >= left : held->left == left;
    if (s->scores && ours && deep_enough && held->turn == turn_colour(p)) {
        int v = moved(held->value, -ply);
        if (held->kind == EXACT || (held->kind == LOWER && v >= beta) ||
            (held->kind == UPPER && v <= alpha)) {
            *settled = v;
            return 1;
        }
    }
    if (ours) *first = held->move;
    return 0;
}

/* _Searcher.leave: the node of `probe` at `ply` returns `result` with `best_key` (NONE: no
 * reply searched), searched `left` plies deep with the window (alpha0, beta0) on entry: the
 * table stores the move, and with scores the value and its kind. */
static void leave_node(Searcher *s, const Probe *probe, int ply, int left, int alpha0, int beta0,
                       int best_key, int result, int turn) {
    if (!s->table || best_key == NONE) return;
    const Entry *held = &probe->held;
    int deeper = held->valid && held->tag != probe->tag && held->left > left;
    if (s->keep_deeper && deeper) return;
    Entry *e = &s->table[probe->slot];
    e->valid = 1;
    e->tag = probe->tag;
    e->move = best_key;
    e->left = left;
    if (s->scores) {
        e->value = moved(result, ply);
        e->kind = result <= alpha0 ? UPPER : result >= beta0 ? LOWER : EXACT;
        e->turn = turn;
    }
}

static int negamax(Searcher *s, int ply, int depth, int alpha, int beta) {
    Position *p = s->p;
    int left = depth - ply, first, settled, turn = turn_colour(p);
    if (s->research & RESEARCH_HALF) left = 2 * (depth - ply) + s->saved[ply];
    Probe probe = {0};
    if (enter_node(s, ply, left, alpha, beta, &probe, &settled, &first)) {
        if (ply == 1) s->reply = probe.held.move;
        return settled;
    }
    int base = s->n_cands, n = candidates(s, first);
    Candidate *cands = s->cands + base;
    int alpha0 = alpha, beta0 = beta, best = -INFINITY_SCORE, best_key = NONE;
    for (int i = 0; i < n; i++) {
        if (!search_play(s, cands[i].cell, cands[i].symbol)) continue;
        if (s->engine) yield_node(s->engine, 1); /* (hwparallel's negamax_steps) */
        int v = pv_value(s, ply, depth - reduction(s, ply, depth), alpha, beta,
                         best > -INFINITY_SCORE);
        pop(p);
        if (v > best) best = v, best_key = cands[i].key;
        if (v > alpha) {
            alpha = v;
            if (alpha >= beta) {
                s->killers[ply] = cands[i].key;
                break;
            }
        }
    }
    s->n_cands = base;
    int result = best > -INFINITY_SCORE ? best : 0;
    if (ply == 1) s->reply = best_key;
    leave_node(s, &probe, ply, left, alpha0, beta0, best_key, result, turn);
    return result;
}

/* What hw_search chose: the played tile's cell and symbol, the score and depth, the nodes. */
typedef struct {
    int32_t found, x, y, symbol, score, depth;
    int64_t nodes;
    int32_t reply; /* the best move (a key, NONE: none) of the chosen move's node at ply 1 */
} SearchResult;

static int bad_parameters(int width, int height, int64_t budget, int max_depth, int entries,
                          int tag_bits, int extensions) {
    return width < 3 || height < 3 || width > 64 || height > 64 || max_depth < 0 ||
           extensions < 0 || max_depth + extensions >= MAX_PLY - 2 || (entries & (entries - 1)) ||
           tag_bits < 0 || tag_bits > 40 || budget < 0;
}

static int searcher_init(Searcher *s, const int32_t *game, int n_moves, int width, int height,
                         int64_t budget, int evaluation, int entries, int tag_bits,
                         int keep_deeper, int scores, int extensions, int research,
                         Entry *table) {
    s->p = replay(game, n_moves, width, height);
    if (!s->p) return -1;
    s->width = width, s->height = height, s->evaluation = evaluation;
    s->extensions = extensions;
    s->research = research;
    s->budget = budget;
    for (int i = 0; i < MAX_PLY; i++) s->killers[i] = NONE;
    s->first_legal = NONE, s->reply = NONE;
    s->cands = malloc(sizeof(Candidate) * CAND_STACK);
    if (!s->cands) return -2;
    if (entries) {
        s->entries = (uint64_t)entries;
        s->tag_bits = tag_bits, s->keep_deeper = keep_deeper, s->scores = scores;
        s->table = table;
    }
    return 0;
}

/* hw_search(board="track"): returns 0, or -1 when the moves cannot be replayed (an illegal
 * move, or beyond the grid), -2 without memory, -3 for bad parameters. */
int fm_search(const int32_t *game, int n_moves, int width, int height, int64_t budget,
              int max_depth, int evaluation, int entries, int tag_bits, int keep_deeper,
              int scores, int extensions, int research, SearchResult *out) {
    memset(out, 0, sizeof *out);
    if (bad_parameters(width, height, budget, max_depth, entries, tag_bits, extensions))
        return -3;
    /* On the heap, and the iteration's state volatile: longjmp leaves them as they were. */
    Searcher *sp = calloc(1, sizeof(Searcher));
    if (!sp) return -2;
    Searcher *s = sp;
    Entry *table = entries ? calloc((size_t)entries, sizeof(Entry)) : NULL;
    int status = entries && !table ? -2 : 0;
    if (!status)
        status = searcher_init(s, game, n_moves, width, height, budget, evaluation, entries,
                               tag_bits, keep_deeper, scores, extensions, research, table);
    if (status) {
        free(s->cands), free(table), free(s->p), free(sp);
        return status;
    }
    if (!s->p->has_box) { /* the first move of a game: the search is not needed */
        free(s->cands), free(table), free(s->p), free(sp);
        *out = (SearchResult){1, 0, 0, 0, 0, 0, 0};
        return 0;
    }
    volatile int have = 0, r_key = NONE, r_cell = 0, r_symbol = 0, r_score = 0, r_depth = 0;
    volatile int r_reply = NONE;
    for (int depth = 1; depth <= max_depth; depth++) {
        volatile int best = -INFINITY_SCORE, alpha = -INFINITY_SCORE;
        volatile int best_key = NONE, best_cell = 0, best_symbol = 0, best_reply = NONE;
        const int beta = INFINITY_SCORE;
        s->n_cands = 0;
        if (setjmp(s->stop)) {
            if (best_key != NONE) {
                r_key = best_key, r_cell = best_cell, r_symbol = best_symbol, r_score = best;
                r_reply = best_reply;
                r_depth = have ? r_depth : 0;
                have = 1;
            } else if (!have && s->first_legal != NONE) {
                r_key = s->first_legal, r_cell = s->first_legal_cell;
                r_symbol = s->first_legal_symbol, r_score = 0, r_depth = 0, r_reply = NONE;
                have = 1;
            }
            goto done;
        }
        int n = drop_excluded(s, moves(s, have ? r_key : NONE));
        Candidate *cands = s->cands;
        for (int i = 0; i < n; i++) {
            if (!search_play(s, cands[i].cell, cands[i].symbol)) continue;
            if (s->first_legal == NONE) {
                s->first_legal = cands[i].key;
                s->first_legal_cell = cands[i].cell, s->first_legal_symbol = cands[i].symbol;
            }
            s->reply = NONE;
            int v = pv_value(s, 0, depth, alpha, beta, best > -INFINITY_SCORE);
            pop(s->p);
            if (v > best) {
                best = v, best_key = cands[i].key;
                best_cell = cands[i].cell, best_symbol = cands[i].symbol, best_reply = s->reply;
            }
            if (v > alpha) alpha = v;
        }
        if (best_key == NONE) break; /* no legal move at all */
        r_key = best_key, r_cell = best_cell, r_symbol = best_symbol, r_score = best;
        r_reply = best_reply, r_depth = depth;
        have = 1;
        if (abs(best) >= MATE_BOUND) break;
    }
done:
    out->nodes = s->nodes;
    out->reply = NONE;
    if (have) {
        out->found = 1, out->reply = r_reply;
        out->x = cell_x(r_cell), out->y = cell_y(r_cell), out->symbol = r_symbol;
        out->score = r_score, out->depth = r_depth;
    }
    free(s->cands), free(s->table), free(s->p), free(sp);
    return 0;
}

/* Position.perft from the position after `game`: the legal move sequences of `depth`; -1 when
 * the moves cannot be replayed. Counts over the frontier list (every empty cell next to a
 * tile, once), so it checks the list as well as the rules. */
static int64_t perft(Position *p, int depth) {
    if (depth <= 0) return 1;
    if (p->outcome) return 0;
    int64_t total = 0;
    int n = p->n_frontier;
    int32_t *cells = malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    memcpy(cells, p->frontier, sizeof(int32_t) * (size_t)n);
    for (int i = 0; i < n; i++) {
        int c = cells[i];
        if (p->tile[c]) continue;
        for (int sym = 0; sym < 3; sym++)
            if (play(p, cell_x(c), cell_y(c), sym)) {
                total += depth == 1 ? 1 : perft(p, depth - 1);
                pop(p);
            }
    }
    free(cells);
    return total;
}

int64_t fm_perft(const int32_t *game, int n_moves, int depth) {
    Position *p = replay(game, n_moves, 64, 64);
    if (!p) return -1;
    int64_t total;
    if (!p->has_box) { /* the empty board: @0+ and @0/ */
        total = 0;
        for (int sym = 0; sym < 2; sym++) {
            play(p, 0, 0, sym);
            total += depth == 1 ? 1 : perft(p, depth - 1);
            pop(p);
        }
    } else {
        total = perft(p, depth);
    }
    free(p);
    return depth <= 0 ? 1 : total;
}

/* Research (RESEARCH_SHAPES): the features of a game's position, counted into `counts`
 * (SHAPE_FEATURES, zeroed first); into `out` the attacks of the side to move and of the other
 * and the evaluation's score (track_score with RESEARCH_SHAPES) for the side to move; -1 when
 * the game does not replay, 1 when it is over, else 0. */
int fm_shape_features(const int32_t *game, int n_moves, int width, int height, int32_t *counts,
                      int32_t *out) {
    Position *p = replay(game, n_moves, width, height);
    if (!p) return -1;
    int status = p->outcome ? 1 : 0;
    memset(counts, 0, SHAPE_FEATURES * sizeof(int32_t));
    if (!status) {
        int side = turn_colour(p);
        Features f = track_features(p);
        shape_walk(p, side, &f, counts);
        out[0] = f.attacks[side], out[1] = f.attacks[!side];
        out[2] = track_score(p, &f, side, RESEARCH_SHAPES);
    }
    free(p);
    return status;
}

/* --- many engines (host/hwparallel.py) ----------------------------------------------------- */

/* An engine's root best in the iteration (_Best). */
typedef struct {
    int value, key, cell, symbol, has_move, exact, reply;
} Best;

static void offer(Best *b, int value, const Candidate *move, int exact, int reply) {
    if (value > b->value || (value == b->value && exact && !b->exact)) {
        b->value = value, b->exact = exact, b->has_move = 1;
        b->key = move->key, b->cell = move->cell, b->symbol = move->symbol, b->reply = reply;
    }
}

/* What the engines share at a split node (_SplitNode). */
typedef struct {
    int made, tickets, best[MAX_ENGINES], completed0, done;
    int best_move[MAX_ENGINES]; /* the move (a key) of each engine's best there */
} SplitNode;

/* A root move searched by its owner, whose replies (the node at ply 1) go by ticket to the
 * owner and its helpers (_HelpNode). */
typedef struct {
    Candidate move;
    int beta, first, tickets, best, best_key, first_done, cut, exhausted, helpers;
} HelpNode;

/* What the engines share in one iteration (_Iteration). */
typedef struct {
    int engines, tickets, completed0, deepest, has_first;
    Best best[MAX_ENGINES];
    Candidate first;
    SplitNode split[MAX_PLY];
    int helpers;                     /* engines whose root moves ran out help the others' */
    HelpNode help[MAX_ENGINES];      /* each engine's root move's node, while it searches one */
    HelpNode *helped[MAX_ENGINES];   /* the nodes open to helpers or not, in ticket order */
    int n_helped, idle[MAX_ENGINES]; /* idle: its root moves ran out, nothing to help */
} Iteration;

/* The engines' coroutines: on x86-64 a switch of stacks that saves the callee-saved registers
 * (no system call, unlike swapcontext's signal mask: it halves a node's cost here), elsewhere
 * ucontext. */
#if defined(__x86_64__) && defined(__GNUC__)
typedef struct {
    void *sp;
} Context;

void fm_switch_stack(void **save, void *load);
__asm__(".text\n"
        ".globl fm_switch_stack\n"
        ".hidden fm_switch_stack\n"
        ".type fm_switch_stack,@function\n"
        "fm_switch_stack:\n"
        "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
        "  ret\n"
        ".size fm_switch_stack, .-fm_switch_stack\n");

static void switch_to(Context *from, Context *to) { fm_switch_stack(&from->sp, to->sp); }

/* A context that starts `entry` (which never returns) on `stack` at its first switch. */
static void start_context(Context *c, char *stack, size_t size, void (*entry)(void)) {
    uintptr_t top = ((uintptr_t)(stack + size)) & ~(uintptr_t)15;
    void **sp = (void **)top;
    *--sp = NULL;           /* entry's return address: none (rsp + 8 aligned, as after a call) */
    *--sp = (void *)entry;  /* where the first switch's ret goes */
    for (int i = 0; i < 6; i++) *--sp = NULL; /* rbp rbx r12 r13 r14 r15 */
    c->sp = sp;
}
#else
typedef ucontext_t Context;

static void switch_to(Context *from, Context *to) { swapcontext(from, to); }

static void start_context(Context *c, char *stack, size_t size, void (*entry)(void)) {
    getcontext(c);
    c->uc_stack.ss_sp = stack;
    c->uc_stack.ss_size = size;
    c->uc_link = NULL;
    makecontext(c, entry, 0);
}
#endif

typedef struct Engine {
    Searcher s;
    int number;
    Context context;
    char *stack;
    int running, stopped, node; /* node: the last yield played a node */
    Iteration *shared;
    int depth, first; /* the iteration's depth and the previous best's key (or NONE) */
    HelpNode *under;  /* the help node whose reply it searches below (NULL: none) */
    jmp_buf cut;      /* where a cutoff of `under` takes it */
} Engine;

static Context scheduler;

static void yield_node(Engine *engine, int node) {
    engine->node = node;
    switch_to(&engine->context, &scheduler);
    /* (hwparallel's negamax_steps: a node played under a help node cut off meanwhile) */
    if (node && engine->under && engine->under->cut) longjmp(engine->cut, 1);
}

static int ticket_of(int *tickets) { return (*tickets)++; }

static int iteration_alpha(const Iteration *it) {
    int a = -INFINITY_SCORE;
    for (int i = 0; i < it->engines; i++)
        if (it->best[i].value > a) a = it->best[i].value;
    return a;
}

static int split_alpha(const Iteration *it, const SplitNode *node) {
    int a = -INFINITY_SCORE;
    for (int i = 0; i < it->engines; i++)
        if (node->best[i] > a) a = node->best[i];
    return a;
}

/* The move of the split node's value: the best move of the lowest-numbered engine holding it. */
static int split_move(const Iteration *it, const SplitNode *node) {
    int a = split_alpha(it, node);
    for (int i = 0; i < it->engines; i++)
        if (node->best[i] == a && a > -INFINITY_SCORE) return node->best_move[i];
    return NONE;
}

static SplitNode *split_node(Iteration *it, int ply) {
    SplitNode *node = &it->split[ply];
    if (!node->made) {
        node->made = 1;
        node->tickets = ply < it->deepest ? 1 : 0;
        for (int i = 0; i < it->engines; i++)
            node->best[i] = -INFINITY_SCORE, node->best_move[i] = NONE;
    }
    return node;
}


/* _Engine.take: walk the candidates from `*next` (the next of legal ordinal `*ordinal`) to the
 * legal one of ordinal `ticket` and play it (a node); the ones before it are played and taken
 * back uncounted. The candidate played, or NULL when they run out first. */
static const Candidate *take_ticket(Searcher *s, const Candidate *moves, int n, int *next,
                                    int *ordinal, int ticket) {
    while (*next < n) {
        const Candidate *move = &moves[(*next)++];
        if (s->nodes == s->budget) longjmp(s->stop, 1);
        if (*ordinal < ticket) {
            if (fits(s, move->cell) &&
                play(s->p, cell_x(move->cell), cell_y(move->cell), move->symbol)) {
                pop(s->p);
                (*ordinal)++;
            }
            continue;
        }
        if (search_play(s, move->cell, move->symbol)) {
            (*ordinal)++;
            return move;
        }
    }
    return NULL;
}


static int split_value(Engine *e, int ply);

/* _Engine.split_share */
static void split_share(Engine *e, int ply) {
    Searcher *s = &e->s;
    Iteration *it = e->shared;
    SplitNode *node = split_node(it, ply);
    int base = s->n_cands, n = candidates(s, s->killers[ply]);
    const Candidate *moves_here = s->cands + base;
    int next = 0, ordinal = 0;
    if (ply < it->deepest) {
        if (!take_ticket(s, moves_here, n, &next, &ordinal, 0)) {
            s->n_cands = base;
            return; /* no legal move */
        }
        yield_node(e, 1);
        int value = leaf(s, ply, e->depth, -INFINITY_SCORE, INFINITY_SCORE);
        if (value == NONE_VALUE) value = -split_value(e, ply + 1);
        pop(s->p);
        if (value > node->best[e->number]) {
            node->best[e->number] = value;
            node->best_move[e->number] = moves_here[next - 1].key;
        }
        node->completed0 = 1;
    }
    for (;;) {
        int ticket = ticket_of(&node->tickets);
        while (ticket > 0 && !node->completed0) yield_node(e, 0);
        const Candidate *move = take_ticket(s, moves_here, n, &next, &ordinal, ticket);
        if (!move) break;
        int alpha = split_alpha(it, node), depth = e->depth - reduction(s, ply, e->depth);
        yield_node(e, 1);
        int value = leaf(s, ply, depth, alpha, INFINITY_SCORE);
        if (value == NONE_VALUE) value = -negamax(s, ply + 1, depth, -INFINITY_SCORE, -alpha);
        pop(s->p);
        if (value > node->best[e->number]) {
            node->best[e->number] = value;
            node->best_move[e->number] = move->key;
        }
        if (ticket == 0) node->completed0 = 1;
    }
    s->n_cands = base;
}

/* _Engine.split_value */
static int split_value(Engine *e, int ply) {
    split_share(e, ply);
    Iteration *it = e->shared;
    SplitNode *node = split_node(it, ply);
    node->done++;
    while (node->done < it->engines) yield_node(e, 0);
    int value = split_alpha(it, node);
    return value > -INFINITY_SCORE ? value : 0;
}

/* _Engine.replies: the replies of `node` (the board is at it, ply 1) by ticket, each searched
 * with the node's window as it stands, until they run out or the node is cut off (then the
 * reply in hand is given up, its plies taken back). */
static void replies(Engine *e, HelpNode *node) {
    Searcher *s = &e->s;
    int base = s->n_cands, n = candidates(s, node->first);
    const Candidate *moves_here = s->cands + base;
    int next = 0, ordinal = 0;
    while (!node->cut) {
        int ticket = ticket_of(&node->tickets);
        const Candidate *move = take_ticket(s, moves_here, n, &next, &ordinal, ticket);
        if (!move) {
            node->exhausted = 1;
            break;
        }
        int alpha = node->best, turns = s->p->n_turns;
        yield_node(e, 1);
        if (setjmp(e->cut)) { /* the node was cut off below this reply */
            e->under = NULL;
            while (s->p->n_turns >= turns) pop(s->p);
            break;
        }
        e->under = node;
        int v = leaf(s, 1, e->depth, alpha, node->beta);
        if (v == NONE_VALUE) v = -negamax(s, 2, e->depth, -node->beta, -alpha);
        e->under = NULL;
        pop(s->p);
        if (v > node->best) node->best = v, node->best_key = move->key;
        node->first_done = 1;
        if (v >= node->beta) {
            s->killers[1] = move->key;
            node->cut = 1;
        }
    }
    s->n_cands = base;
}

static int help_open(const HelpNode *node) {
    return node->first_done && !node->cut && !node->exhausted;
}

/* _Engine.owned: the value of the node below root move `move` (the board is at it; the window
 * (-infinity, -alpha)), its replies shared with helpers: entered and left as any node (the
 * table's lookup, its settled value, its move first, which the helpers take as theirs there;
 * the best reply stored), its value the largest best of all once its helpers have left. */
static int owned(Engine *e, const Candidate *move, int alpha) {
    Searcher *s = &e->s;
    Iteration *it = e->shared;
    int left = e->depth - 1, beta = -alpha, first, settled, turn = turn_colour(s->p);
    Probe probe = {0};
    if (enter_node(s, 1, left, -INFINITY_SCORE, beta, &probe, &settled, &first)) {
        s->reply = probe.held.move;
        return settled;
    }
    int base = s->n_cands, n = candidates(s, first);
    HelpNode *node = &it->help[e->number];
    memset(node, 0, sizeof *node);
    node->move = *move, node->beta = beta, node->first = n ? s->cands[base].key : NONE;
    node->best = -INFINITY_SCORE, node->best_key = NONE;
    s->n_cands = base;
    it->helped[it->n_helped++] = node;
    replies(e, node);
    while (node->helpers) yield_node(e, 0); /* the helpers' replies */
    int k = 0;
    while (it->helped[k] != node) k++;
    for (it->n_helped--; k < it->n_helped; k++) it->helped[k] = it->helped[k + 1];
    int value = node->best > -INFINITY_SCORE ? node->best : 0;
    s->reply = node->best_key;
    leave_node(s, &probe, 1, left, -INFINITY_SCORE, beta, node->best_key, value, turn);
    return value;
}

/* _Engine.help: help the root moves still searched (the open node taken first): play its root
 * move (a node), take its replies by ticket, take the move back; until every engine is idle. */
static void help(Engine *e) {
    Searcher *s = &e->s;
    Iteration *it = e->shared;
    for (;;) {
        HelpNode *node = NULL;
        for (int k = 0; k < it->n_helped && !node; k++)
            if (help_open(it->helped[k])) node = it->helped[k];
        if (!node) {
            it->idle[e->number] = 1;
            int over = 1;
            for (int i = 0; i < it->engines; i++) over &= it->idle[i];
            if (over) return;
            yield_node(e, 0); /* nothing to help now */
            continue;
        }
        it->idle[e->number] = 0;
        node->helpers++;
        search_play(s, node->move.cell, node->move.symbol); /* legal: a root move here */
        yield_node(e, 1);
        replies(e, node);
        pop(s->p);
        node->helpers--;
    }
}

/* _Engine.iteration, run as the engine's coroutine. */
static void engine_iteration(Engine *e) {
    Searcher *s = &e->s;
    Iteration *it = e->shared;
    int depth = e->depth;
    s->n_cands = 0;
    int n = drop_excluded(s, moves(s, e->first)), next = 0, ordinal = 0;
    const Candidate *roots = s->cands;
    if (e->first != NONE) { /* the PV split: every engine plays the previous best itself */
        const Candidate *move = &roots[next++];
        search_play(s, move->cell, move->symbol);
        it->first = *move, it->has_first = 1;
        yield_node(e, 1);
        int value = leaf(s, 0, depth, -INFINITY_SCORE, INFINITY_SCORE), reply = NONE;
        if (value == NONE_VALUE) {
            value = -split_value(e, 1);
            reply = split_move(it, split_node(it, 1));
        }
        pop(s->p);
        offer(&it->best[e->number], value, move, 1, reply);
        it->completed0 = 1;
        ordinal = 1;
    }
    for (;;) {
        int ticket = ticket_of(&it->tickets);
        while (e->first != NONE && ticket > 0 && !it->completed0) yield_node(e, 0);
        const Candidate *move = take_ticket(s, roots, n, &next, &ordinal, ticket);
        if (!move) break;
        if (ticket == 0) it->first = *move, it->has_first = 1;
        int alpha = iteration_alpha(it);
        yield_node(e, 1);
        int value = leaf(s, 0, depth, alpha, INFINITY_SCORE), exact = value != NONE_VALUE;
        s->reply = NONE;
        if (!exact) {
            value = it->helpers ? -owned(e, move, alpha)
                                : -negamax(s, 1, depth, -INFINITY_SCORE, -alpha);
            exact = value > alpha;
        }
        pop(s->p);
        offer(&it->best[e->number], value, move, exact, s->reply);
        if (ticket == 0) it->completed0 = 1;
    }
    if (it->helpers) help(e);
}

static Engine *starting;

static void engine_entry(void) {
    Engine *e = starting;
    if (setjmp(e->s.stop)) {
        e->stopped = 1; /* the budget is spent: never resumed */
    } else {
        engine_iteration(e);
    }
    e->running = 0;
    switch_to(&e->context, &scheduler);
}

/* What hw_parallel_search chose, with each completed iteration's score, each engine's nodes
 * and the ticks. */
typedef struct {
    SearchResult result;
    int32_t n_iterations, iterations[MAX_PLY];
    int64_t engine_nodes[MAX_ENGINES];
    int64_t ticks;
} ParallelResult;


/* hw_parallel_search: `engines` engines, `budget` nodes each, `ticks_budget`
 * ticks in all (-1: none); the table of `entries` shared by all (shared_table) or each engine's
 * own. Returns as fm_search. */
int fm_parallel_search(const int32_t *game, int n_moves, int width, int height, int64_t budget,
                       int max_depth, int engines, int pv_plies, int evaluation, int entries,
                       int tag_bits, int keep_deeper, int scores, int shared_table,
                       int extensions, int research, int64_t ticks_budget, int helpers,
                       ParallelResult *out) {
    memset(out, 0, sizeof *out);
    if (bad_parameters(width, height, budget, max_depth, entries, tag_bits, extensions) ||
        engines < 1 || engines > MAX_ENGINES || pv_plies < 1)
        return -3;
    Engine *team = calloc((size_t)engines, sizeof(Engine));
    Iteration *it = calloc(1, sizeof(Iteration));
    Entry *tables[MAX_ENGINES] = {0};
    int status = team && it ? 0 : -2;
    for (int i = 0; i < engines && !status; i++) {
        if (entries && (i == 0 || !shared_table)) {
            tables[i] = calloc((size_t)entries, sizeof(Entry));
            if (!tables[i]) status = -2;
        }
        Entry *table = entries ? tables[shared_table ? 0 : i] : NULL;
        if (!status)
            status = searcher_init(&team[i].s, game, n_moves, width, height, budget,
                                   evaluation, entries, tag_bits, keep_deeper, scores,
                                   extensions, research, table);
        if (!status) {
            team[i].number = i;
            team[i].s.engine = &team[i];
            team[i].stack = malloc(ENGINE_STACK);
            if (!team[i].stack) status = -2;
        }
    }
    if (!status && !team[0].s.p->has_box) { /* the first move: the search is not needed */
        out->result = (SearchResult){1, 0, 0, 0, 0, 0, 0};
        goto free_all;
    }
    int have = 0, r_key = NONE, r_cell = 0, r_symbol = 0, r_score = 0, r_depth = 0;
    int r_reply = NONE;
    int64_t ticks = 0;
    int split_deepest = pv_plies < (max_depth - 2 > 1 ? max_depth - 2 : 1)
                            ? pv_plies
                            : (max_depth - 2 > 1 ? max_depth - 2 : 1);
    for (int depth = 1; depth <= max_depth && !status; depth++) {
        int first = have ? r_key : NONE;
        memset(it, 0, sizeof *it);
        it->engines = engines;
        it->helpers = helpers;
        it->tickets = first != NONE ? 1 : 0;
        it->deepest = depth - 2 < pv_plies ? depth - 2 : pv_plies;
        if (it->deepest < 1) it->deepest = 1;
        for (int i = 0; i < engines; i++) it->best[i].value = -INFINITY_SCORE;
        if (first != NONE)
            for (int i = 1; i < engines; i++)
                for (int ply = 1; ply <= split_deepest; ply++)
                    team[i].s.killers[ply] = team[0].s.killers[ply];
        for (int i = 0; i < engines; i++) {
            Engine *e = &team[i];
            e->shared = it, e->depth = depth, e->first = first;
            e->running = 1, e->stopped = 0;
            start_context(&e->context, e->stack, ENGINE_STACK, engine_entry);
        }
        int stopped = 0, any = 1;
        int started[MAX_ENGINES] = {0};
        while (any && !stopped) {
            if (ticks == ticks_budget) /* the clock budget: each stops at its next candidate */
                for (int i = 0; i < engines; i++)
                    if (team[i].s.budget > team[i].s.nodes) team[i].s.budget = team[i].s.nodes;
            int played = 0;
            any = 0;
            for (int i = 0; i < engines; i++) {
                Engine *e = &team[i];
                if (!e->running) continue;
                if (!started[i]) started[i] = 1, starting = e;
                e->node = 0;
                switch_to(&scheduler, &e->context);
                if (e->stopped) {
                    stopped = 1;
                    break;
                }
                if (e->running) {
                    played |= e->node;
                    any = 1;
                }
            }
            if (played) ticks++;
        }
        /* merge */
        int score = iteration_alpha(it), merged = -1;
        for (int i = 0; i < engines; i++)
            if (it->best[i].has_move && it->best[i].value == score && it->best[i].exact) {
                merged = i;
                break;
            }
        if (stopped) {
            if (merged >= 0 && (!have || it->completed0)) {
                const Best *b = &it->best[merged];
                r_key = b->key, r_cell = b->cell, r_symbol = b->symbol, r_score = score;
                r_reply = b->reply, r_depth = have ? r_depth : 0;
                have = 1;
            } else if (!have && it->has_first) {
                r_key = it->first.key, r_cell = it->first.cell, r_symbol = it->first.symbol;
                r_score = 0, r_depth = 0, r_reply = NONE;
                have = 1;
            }
            break;
        }
        if (merged < 0) break; /* no legal move at all */
        const Best *b = &it->best[merged];
        r_key = b->key, r_cell = b->cell, r_symbol = b->symbol, r_score = score, r_depth = depth;
        r_reply = b->reply;
        have = 1;
        out->iterations[out->n_iterations++] = score;
        if (abs(score) >= MATE_BOUND) break;
    }
    if (!status) {
        for (int i = 0; i < engines; i++) {
            out->engine_nodes[i] = team[i].s.nodes;
            out->result.nodes += team[i].s.nodes;
        }
        out->ticks = ticks;
        out->result.reply = NONE;
        if (have) {
            out->result.found = 1, out->result.reply = r_reply;
            out->result.x = cell_x(r_cell), out->result.y = cell_y(r_cell);
            out->result.symbol = r_symbol, out->result.score = r_score;
            out->result.depth = r_depth;
        }
    }
free_all:
    for (int i = 0; team && i < engines; i++) {
        free(team[i].s.cands), free(team[i].s.p), free(team[i].stack), free(tables[i]);
    }
    free(team), free(it);
    return status;
}
