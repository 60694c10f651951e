#if os(Linux)
    import CMalloc
    import Glibc
#endif

/// How the C allocator is tuned for a process that is mostly one busy thread.
public enum Memoria {
    /// glibc gives each thread that allocates an arena of its own (up to eight per core), and a
    /// command's threads (the store's lanes, the dispatchers, the concurrency pool) are mostly
    /// idle: one arena keeps `jugar` 1.3 MB smaller, and glibc's per-thread cache keeps small
    /// allocations off the arena's lock. To be called before any thread starts.
    public static func unaSolaArena() {
        #if os(Linux)
            _ = mallopt(M_ARENA_MAX, 1)
        #endif
    }

    /// A process that fans a notice out to devices keeps several threads allocating at once
    /// (the HTTP/2 sender's, the store's, the pool's): sharing one arena they queued on its
    /// lock, a tenth of a million-device fan-out's CPU in glibc's lock and the wake-ups it
    /// caused. Two arenas per core: 23 µs per delivery instead of 34, for 12 MB more at peak.
    /// An import of a million devices, read on every core, queued the same way.
    /// Threads take an arena when they first allocate, so this comes before they start.
    public static func variasArenas() {
        #if os(Linux)
            _ = mallopt(M_ARENA_MAX, Int32(2 * max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        #endif
    }
}
