// SPDX-License-Identifier: MIT
/* Without Hyperscan there is no serialized database: the packs compile at start-up. */
#include "db.h"

const unsigned char builtin_db[1];
const size_t builtin_db_len = 0;
