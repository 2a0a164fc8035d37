// sized_refusal.hpp: the checks of the sized arguments (common/abi_sized.hpp) as the C API's code and
// message, for the generated entry points (lib/generated/sized_entries.cpp).
#pragma once

#include "capi/guard.hpp"
#include "common/abi_sized.hpp"

namespace lat {

/// LAT_SUCCESS, or the first argument's refusal (its message for lat_last_error_message()), before the
/// function runs: like a NULL pointer, it is refused before any message, on every rank that passed it.
template <class... Sized>
int sized_refusal(const Sized &...args) {
  return guard([&] {
    for (const SizedCheck *c : {&args.check()...})
      if (c->code != LAT_SUCCESS) throw_code(c->code, c->message);
    return LAT_SUCCESS;
  });
}

}  // namespace lat
