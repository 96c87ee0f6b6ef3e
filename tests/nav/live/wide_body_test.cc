// Wide bodies: searches and LiveWorld answers for a body radius and a formation half-width.
#include "gtest/gtest.h"
