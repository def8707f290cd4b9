/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * digest_set.h - the selected algorithms as one object.
 *
 * A selection is the user's ordered list of digests; a digest set holds
 * one live state per entry of a selection.  One buffer given to
 * ms_digest_set_update reaches every digest.  Results are the raw
 * digests laid end to end in selection order.
 */
#ifndef MS_DIGEST_SET_H
#define MS_DIGEST_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "digest/algorithm.h"

#define MS_SET_MAX	64

struct ms_selection {
	size_t		 cnt;
	struct ms_digest_spec spec[MS_SET_MAX];
	size_t		 offset[MS_SET_MAX];	/* of each raw digest */
	size_t		 out_len;		/* all raw digests */
	/* what its rows' ops have, kept by ms_selection_add: */
	bool		 subject;	/* a digest reads the file's name */
	bool		 many;		/* a digest takes many messages at once */
};

struct ms_digest_set {
	const struct ms_selection *sel;
	void		*state[MS_SET_MAX];
};

/* Add spec unless already there (ms_spec_same); -1 if the selection is
 * full. */
int	 ms_selection_add(struct ms_selection *sel, const struct ms_digest_spec *spec);
void	 ms_selection_add_all(struct ms_selection *sel);

/* Do a and b list the same digests (ms_spec_same) in the same order? */
bool	 ms_selection_equal(const struct ms_selection *a,
	    const struct ms_selection *b);

/* Give every spec the parameters of p its row takes (ms_spec_set_params). */
void	 ms_selection_set_params(struct ms_selection *sel,
	    const struct ms_digest_params *p);

/* Load every backend the selection needs; -1 after a message. */
int	 ms_selection_load(const struct ms_selection *sel);

/* Create one state per spec (exits on ENOMEM). */
void	 ms_digest_set_create(struct ms_digest_set *set, const struct ms_selection *sel);
void	 ms_digest_set_destroy(struct ms_digest_set *set);

void	 ms_digest_set_init(struct ms_digest_set *set);
/* After init: the message is the file at path (its basename is what a
 * subject digest reads) of size bytes, UINT64_MAX if unknown. */
void	 ms_digest_set_subject(struct ms_digest_set *set, const char *path,
	    uint64_t size);
/* Does a digest of the selection read its message's name (subject)? */
bool	 ms_selection_has_subject(const struct ms_selection *sel);
void	 ms_digest_set_update(struct ms_digest_set *set, const void *p, size_t n);
/* Writes sel->out_len bytes. */
void	 ms_digest_set_final(struct ms_digest_set *set, unsigned char *out);

/* One digest of the set, for engines that spread digests over threads. */
static inline void
ms_digest_set_update_one(struct ms_digest_set *set, size_t i, const void *p, size_t n)
{
	set->sel->spec[i].algo->ops->update(set->state[i], p, n);
}

void	 ms_digest_set_final_one(struct ms_digest_set *set, size_t i, unsigned char *out);

/* Has a digest of the selection a many operation (algorithm.h)? */
bool	 ms_selection_has_many(const struct ms_selection *sel);

/* The most messages ms_digest_set_many takes at once. */
#define MS_MANY_MAX	64

/*
 * The digests of cnt whole messages (msg[i], len[i] bytes; cnt at most
 * MS_MANY_MAX), each into out[i] (sel->out_len bytes, selection order):
 * through each digest's many operation where it has one, the rest through
 * the set's states, one message after another.
 */
void	 ms_digest_set_many(struct ms_digest_set *set, size_t cnt,
	    const unsigned char *const msg[], const size_t len[],
	    unsigned char *const out[]);

/* One digest, the row name at bits (0: the row's own), over p[0..n)
 * into out: for the short texts a signature or a record sums.  -1
 * after a message when the row is unknown or its library will not load. */
int	 ms_digest_buffer(const char *name, unsigned bits, const void *p,
	    size_t n, unsigned char *out);

#endif
