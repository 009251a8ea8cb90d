#ifndef FEEDSIM_PARENT_DEATH_H
#define FEEDSIM_PARENT_DEATH_H

/// Asks the kernel to send `signal` to the calling process when its parent
/// exits (Linux `prctl(PR_SET_PDEATHSIG)`, which Swift cannot call: prctl is
/// variadic). Returns 0 on success, -1 where the system has no such request.
int feedsim_set_parent_death_signal(int signal);

#endif
