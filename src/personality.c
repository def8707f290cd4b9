/* personality.c - placeholder until the coreutils personalities land (issue 3). */
#include "personality.h"

bool
ms_personality_known(const char *name)
{
	(void)name;
	return false;
}

int
ms_personality_main(const char *name, int argc, char **argv)
{
	(void)name; (void)argc; (void)argv;
	return 2;
}
