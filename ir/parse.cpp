#include "ir/parse.h"
