/* ---- The toy barrier run (the template capability, docs/architecture.md; spec/toy.toml) ---- */

/* The structs lat_toy_options, lat_toy_summary: include/mpilat_types.h, generated from spec/. */
/** Opaque handle to the result of a toy barrier run; free with lat_toy_free(). */
typedef struct lat_toy_s *lat_toy;

/** Fills *opts with the defaults: 100 barriers a loop, 50 loops, no watchdog. */
int lat_toy_defaults(lat_toy_options *opts);

/** Checks opts as lat_toy_measure() would on a communicator of nprocs processes; not collective. */
int lat_toy_check(const lat_toy_options *opts, int nprocs);

/**
 * Collective over comm: the time of one MPI_Barrier, each loop the mean of opts->iters barriers, over
 * opts->reps loops; *result gets the handle on every rank. LAT_ERR_INTERRUPTED after a stop request, the
 * result then holding the loops made.
 */
int lat_toy_measure(MPI_Comm comm, const lat_toy_options *opts, lat_toy *result);

/** The run's summary. */
int lat_toy_get_summary(lat_toy toy, lat_toy_summary *summary);

/** Writes outdir/toy.txt and toy.json, whole or not at all. Not collective. */
int lat_write_toy_files(const char *outdir, const char *command_line, lat_toy toy);

/** Frees the handle and sets *toy to NULL; a NULL *toy is accepted. */
int lat_toy_free(lat_toy *toy);

