#ifndef MARCADOR_SENALES_H
#define MARCADOR_SENALES_H

/// Makes SIGBUS end the process with `estado` after writing `mensaje` to stderr.
///
/// SQLite maps its `-shm` file into memory; when the file's disk turns immutable or read-only
/// under a running process, the kernel answers the next write to that memory with SIGBUS. No
/// code can go on after it, but it need not die of a signal either: the handler only calls
/// write(2) and _exit(2), both async-signal-safe, on a copy of the text made here.
/// Returns 0, or -1 when the handler could not be installed (errno says why).
int senales_sigbus_sale(const char *mensaje, int estado);

#endif
