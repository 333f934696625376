#include "ir/print.h"
