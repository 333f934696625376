#include "ir/value.h"
