/* hold_finalize.c: a preloaded MPI_Finalize that does not return on the ranks MPILAT_HOLD_FINALIZE names
   ("all", or one rank of MPI_COMM_WORLD), as UCX's TCP teardown hangs it (openucx/ucx#8738): for ever, or
   for MPILAT_HOLD_FINALIZE_S seconds and then MPI_Finalize proper (its PMI barrier late, as a teardown that
   came loose); the other ranks finalize. MPILAT_LATE_RANK leaves MPI_COMM_WORLD's barriers MPILAT_LATE_S
   seconds (default 2) after the others (the drivers' one barrier is driver_finalize's), so that its watch
   ends it that much later than theirs: ranks reaching MPI_Finalize apart, as between nodes.
   driver_finalize_watch's real event. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank_named(const char *variable, int rank) {
  const char *value = getenv(variable);
  return value != NULL && (strcmp(value, "all") == 0 || atoi(value) == rank);
}

int MPI_Barrier(MPI_Comm comm) {
  const int rc = PMPI_Barrier(comm);
  int rank = -1;
  if (comm == MPI_COMM_WORLD && PMPI_Comm_rank(comm, &rank) == MPI_SUCCESS && rank_named("MPILAT_LATE_RANK", rank))
    sleep(getenv("MPILAT_LATE_S") != NULL ? (unsigned)atoi(getenv("MPILAT_LATE_S")) : 2u);
  return rc;
}

int MPI_Finalize(void) {
  int rank = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank_named("MPILAT_HOLD_FINALIZE", rank)) {
    if (getenv("MPILAT_HOLD_FINALIZE_S") != NULL)
      sleep((unsigned)atoi(getenv("MPILAT_HOLD_FINALIZE_S")));
    else
      for (;;) pause();
  }
  return PMPI_Finalize();
}
