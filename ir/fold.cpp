#include "ir/fold.h"
