#if os(Linux)
    import CMalloc
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
}
