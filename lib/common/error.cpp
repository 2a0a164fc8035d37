#include "common/error.hpp"

#include <exception>
#include <new>

namespace lat {

Fault current_fault() noexcept {
  try {
    throw;
  } catch (const ArgError &) {
    return Fault::arg;
  } catch (const NoMemError &) {
    return Fault::nomem;
  } catch (const std::bad_alloc &) {
    return Fault::nomem;
  } catch (const MpiError &) {
    return Fault::mpi;
  } catch (const NotInitError &) {
    return Fault::not_init;
  } catch (const UnsupportedError &) {
    return Fault::unsupported;
  } catch (const IoError &) {
    return Fault::io;
  } catch (const TimeoutError &) {
    return Fault::timeout;
  } catch (const DataError &) {
    return Fault::data;
  } catch (...) {
    return Fault::internal;
  }
}

void throw_fault(Fault fault, const std::string &message) {
  switch (fault) {
    case Fault::arg: throw ArgError(message);
    case Fault::nomem: throw NoMemError(message);
    case Fault::mpi: throw MpiError(message);
    case Fault::not_init: throw NotInitError(message);
    case Fault::unsupported: throw UnsupportedError(message);
    case Fault::io: throw IoError(message);
    case Fault::timeout: throw TimeoutError(message);
    case Fault::data: throw DataError(message);
    case Fault::internal: break;
  }
  throw std::runtime_error(message);
}

}  // namespace lat
