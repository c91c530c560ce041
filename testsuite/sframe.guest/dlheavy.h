/* dlheavy.h -- what dlheavy.c and its plugins share.  See dlheavy.c.  */

#ifndef DLHEAVY_H
#define DLHEAVY_H

struct dlheavy_ctx;

/* A plugin's step: call the next step, or spin in the leaf if DEPTH is
   the last one.  */
typedef unsigned long dlheavy_step_fn (struct dlheavy_ctx *ctx, int depth);

struct dlheavy_ctx
{
  int nsteps;
  dlheavy_step_fn *steps[3];
  double seconds;		/* How long the leaf spins.  */
  unsigned long seed;
};

#endif
