/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_int.h - what the parts of check mode share: the report queue
 * that check.c fills (manifests read, entries hashed by the engine, or
 * matched with archive members by check_archive.c) and check_report.c
 * words, record by record in manifest order; the registry of selections
 * (check_select.c).  The queue is bounded: it holds what the engine has
 * in flight and the lines read since its oldest entry, never the whole
 * manifest (but with --archive, whose one pass needs every name first).
 * Nothing outside them includes it.
 */
#ifndef MS_CHECK_INT_H
#define MS_CHECK_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "modes/check.h"
#include "engine/engine.h"
#include "manifest/manifest.h"
#include "io/output.h"
#include "signature/signature.h"

/* One MANIFEST operand and its counters (coreutils' digest_check). */
struct manifest {
	const char	*name;		/* for messages, "standard input" for - */
	size_t		 bad, unreadable, mismatched;
	bool		 any_entry;	/* a properly formatted line */
	bool		 matched;	/* a file verified OK */
	int		 open_err;	/* errno: could not be opened */
	bool		 read_err;	/* failed while reading */
	int		 read_errno;	/* errno of a failed close, else 0 */
	int		 read_cause;	/* errno of the failed read */
	bool		 summary;	/* the WARNING lines (not for --expect) */
	size_t		 unsupported;	/* lines neither OK nor FAILED */
	size_t		 absent;	/* optional entries not there */
	size_t		 outside;	/* lines outside the signed part */
	bool		 refused;	/* its signature was refused: nothing read */
	bool		 sig_noted;	/* a REC_SIGNATURE was queued for it */
	bool		 hinted;	/* the hint after a guessed FAILED */
	bool		 noted;		/* the note on a non-cryptographic default */
	bool		 pathed;	/* the note on a Windows path */
	const char	*said;		/* the last reason given for a bad line */
	bool		 empty_ok;	/* --per-dir: a folder's may list no file */
	char		*root;		/* a Python RECORD's: what its names are
					 * below ("" or ending in '/'; malloc) */
	bool		 unsigned_read;	/* lines were verified before any PGP
					 * header: one later is REC_LATE_PGP */
	bool		 late_pgp;	/* and one came: the run fails */
	/* check_resolve.c: the algorithm its guessed digests turned out
	 * to be, per length (the guess itself when no stand-in matched) */
	struct ms_digest_spec found[4];
	size_t		 nfound;
	bool		 tried;		/* stand-ins were tried (the hint) */
	bool		 probed;	/* its probe was chosen (once a list) */
	bool		 probing;	/* and is not reported yet */
};

enum rec_kind {
	REC_ENTRY, REC_BAD, REC_UNSUPPORTED, REC_OUTSIDE,
	REC_STOP,	/* a line the parser stopped at (style->fatal_unreadable) */
	REC_LATE_PGP,	/* a PGP header after lines verified as unsigned */
	REC_SIGNATURE,	/* what signature.h said of the manifest's signature */
	REC_END,
	REC_NOTE,	/* --per-dir: "NAME: WHY" (name, why), in its place */
};

/* One thing to report, in manifest order. */
struct rec {
	struct rec	*next;
	enum rec_kind	 kind;
	struct manifest	*m;
	bool		 done;		/* REC_ENTRY: the task is back */
	bool		 held;		/* on the pending list: not yet settled */
	size_t		 bytes;		/* its memory and its task's */
	struct ms_task	*task;		/* REC_ENTRY */
	struct rec	*pending;	/* the manifest's entries not yet submitted */
	unsigned long	 line;
	const char	*type;		/* REC_BAD: "SHA256" or NULL */
	char		*why;		/* REC_BAD, REC_UNSUPPORTED, REC_STOP, REC_NOTE,
					 * REC_SIGNATURE;
					 * REC_ENTRY: how its name was found */
	char		*name;		/* REC_UNSUPPORTED, REC_OUTSIDE */
	bool		 outside;	/* not in a PGP message's signed part */
	bool		 escaped;	/* REC_ENTRY: b3sum's line began with \ */
	/* REC_ENTRY of a Debian list: the file's size (has_size); may
	 * be absent (a Release file's, from a partial mirror) */
	bool		 has_size, optional;
	uint64_t	 size;
	enum ms_resolved how;		/* REC_ENTRY: how its algorithm was chosen */
	/* --archive: its place in the queue, the member it took (1 on; 0:
	 * none), how many members of its name went by */
	size_t		 place, member, namesakes;
	size_t		 n;		/* REC_ENTRY: digests on the line */
	unsigned	 guessed;	/* bit i: digest i's algorithm a guess */
	bool		 probe;		/* its list waits for its verdict */
	size_t		 len[MS_MANIFEST_DIGESTS];	/* compared prefix of each */
	size_t		 want_len;	/* all of them */
	unsigned char	 want[];	/* the expected digests, end to end */
};

/* The selections of a run, one per list of digests met, loaded once. */
struct ms_check_registry {
	struct ms_check_sel **sels;
	size_t		 nsels;	/* their specs carry their parameters */
};

struct run {
	const struct ms_options *o;
	const struct ms_check_style *style;
	struct ms_engine_config cfg;	/* o->engine, with the progress line */
	struct ms_engine *engine;	/* NULL with --archive */
	struct ms_output out;		/* the report: standard output */
	struct rec	*head, **tail;
	struct ms_check_registry reg;	/* the selections entries need */
	struct rec	**idx;		/* --archive: pending entries by name */
	size_t		 nidx;
	size_t		 members;	/* --archive: members chosen so far */
	bool		 failed;	/* exit status 1 */
	bool		 stopped;	/* fatal_unreadable: nothing more is said */
	bool		 stdin_manifest;	/* a manifest is standard input */
	struct rec	*pending, **pending_tail;	/* read, not submitted */
	size_t		 npending, pending_bytes;
	size_t		 queued_bytes;	/* of every record in the queue */
	size_t		 queue_max;	/* its bound, out of --memory */
	struct ms_task	**go;		/* submit()'s batch */
	size_t		 go_cap;
	/* --per-dir (ms_check_read): what entry names are joined to, and
	 * who is told of entries and comment lines */
	const char	*prefix;
	const struct ms_check_hooks *hooks;
	char		**paths;	/* the manifests' paths, kept to the end */
	size_t		 npaths;
	struct ms_verifier *verifier;	/* signatures (native rules only) */
};

/*
 * Say what rec means, in the style's words (check_report.c), and free
 * what it owns but itself: its task, or its manifest at REC_END.
 */
void	 ms_check_report(struct run *r, struct rec *rec);

/*
 * check_select.c: the loaded selection of cnt specs, shared by every
 * entry that needs the same ones; one whose backend cannot load is kept
 * empty (cnt 0), so that its message comes once.
 */
const struct ms_selection *ms_check_selection_for(struct ms_check_registry *g,
	    const struct ms_digest_spec *spec, size_t cnt);
void	 ms_check_registry_free(struct ms_check_registry *g);

/*
 * check_root.c: what the names of the list at path are below (malloc:
 * "" for the current folder), and for a Debian Packages index named from
 * inside its repository's dists/, the way up to the repository's top
 * ("../../../../" after the path's folder), or NULL.
 */
char	*ms_check_list_root(const struct run *r, const char *path,
	    bool attest);
char	*ms_check_repository_top(const char *path);

/*
 * check_archive.c: --archive, every queued entry against the members;
 * the caller reports them.
 */
void	 ms_check_archive(struct run *r);

/*
 * check_resolve.c: an untagged digest taken by its length or its list's
 * name is a guess.  ms_check_found: what the list's digests of len bytes
 * turned out to be, or NULL if not known yet.  ms_check_resolve: rec's
 * file did not match its guess; read it again through the guess's
 * stand-ins (ms_manifest_stand_ins) at once, or through what the list
 * turned out to be, and if one matches make rec's task hold its digest
 * and say once per list which it is.  Returns whether one matched.
 */
const struct ms_digest_spec *ms_check_found(const struct manifest *m,
	    size_t len);
bool	 ms_check_resolve(struct run *r, struct rec *rec);
/* rec matched: its guesses are its list's algorithms, where none was. */
void	 ms_check_matched(struct manifest *m, const struct rec *rec);
/*
 * Before rec is submitted: ms_check_settle gives its guesses what its
 * list turned out to be; ms_check_probe says whether rec is to be its
 * list's probe, the first guess of the list, of a regular file small
 * enough (MS_PROBE_MAX) to be hashed alone while the list's later
 * records wait for its verdict, so that none of them is read twice.
 */
#define MS_PROBE_MAX	((long long)64 << 20)
void	 ms_check_settle(struct run *r, struct rec *rec);
bool	 ms_check_probe(struct run *r, struct rec *rec);

/*
 * check_torrent.c: is path a torrent (by its name)?  Verify its files,
 * their lines queued in the report after what came before.
 */
bool	 ms_check_is_torrent(const char *path);
void	 ms_check_torrent(struct run *r, const char *path,
	    void (*note)(struct run *r, const char *name, const char *why));

#endif
