/// The size limits of §5.8: the clients' nominal constants plus a configurable headroom.
public struct SizeLimits: Sendable, Equatable {
    /// Largest accepted record size.
    public let record: Int
    /// Largest accepted datastore size.
    public let datastore: Int
    /// Largest accepted delta size.
    public let delta: Int
    /// Largest accepted record count.
    public let records: Int

    /// Nominal limits: record 100 KiB, datastore 10 MiB, delta 2 MiB, 100,000 records.
    public static let nominal = (record: 102_400, datastore: 10_485_760, delta: 2_097_152, records: 100_000)

    /// Thresholds `nominal + floor(nominal × headroom / 100)`; 10 % gives 112,640 / 11,534,336 / 2,306,867 / 110,000.
    public init(headroomPercent: Int) {
        // The JS SDK skips the limit check for its automatic `:info.mtime` change, relying on this tolerance.
        func widen(_ n: Int) -> Int { n + n * headroomPercent / 100 }
        record = widen(Self.nominal.record)
        datastore = widen(Self.nominal.datastore)
        delta = widen(Self.nominal.delta)
        records = widen(Self.nominal.records)
    }
}

/// The datastore totals after a delta passed the size checks.
public struct SizeOutcome: Sendable, Equatable {
    /// Datastore size after the delta.
    public let datastoreSize: Int
    /// Record count after the delta.
    public let recordCount: Int
    /// New accounted size of each touched record that still exists (nil for one that does not), in the
    /// order of the working copy's `order`.
    public let recordSizes: [Int?]

    /// The new size of the record at `position` of the working copy, nil when it no longer exists.
    public func recordSize(at position: Int) -> Int? {
        recordSizes.indices.contains(position) ? recordSizes[position] : nil
    }
}

/// Runs the post-delta size checks in the order of §5.8; each refuses only quantities that grew.
public enum SizeCheck {
    /// Checks the working copy against `limits`; throws an `ApplyError` message on a breach.
    public static func check(_ copy: WorkingCopy, deltaSize: Int, datastoreSize: Int, recordCount: Int,
                             limits: SizeLimits) throws(ApplyError) -> SizeOutcome {
        var newSize = datastoreSize
        var newCount = recordCount
        var sizes: [Int?] = []
        sizes.reserveCapacity(copy.records.count)
        for (key, record) in copy.touched {
            let after = record.fields.map(Values.recordSize) ?? 0
            sizes.append(record.fields == nil ? nil : after)
            if record.fields != nil {
                if after > limits.record && after > record.beforeSize {
                    throw ApplyError(record.lastChange,
                                     "record \(DeltaApplier.describe(key)) too large: \(after) bytes")
                }
            }
            // Stored sizes and counts come from disk; a damaged row must not overflow the totals.
            guard let size = Self.adding(newSize, Self.subtracting(after, record.beforeSize)) else {
                throw ApplyError(message: "datastore too large: size out of range")
            }
            newSize = size
            guard let count = Self.adding(newCount, (record.fields == nil ? 0 : 1) - (record.before == nil ? 0 : 1)) else {
                throw ApplyError(message: "too many records: count out of range")
            }
            newCount = count
        }
        if newSize > limits.datastore && newSize > datastoreSize {
            throw ApplyError(message: "datastore too large: \(newSize) bytes")
        }
        if newCount > limits.records && newCount > recordCount {
            throw ApplyError(message: "too many records: \(newCount)")
        }
        if deltaSize > limits.delta {
            throw ApplyError(message: "delta too large: \(deltaSize) bytes")
        }
        return SizeOutcome(datastoreSize: newSize, recordCount: newCount, recordSizes: sizes)
    }

    /// `a + b`, or nil on overflow (nil operands propagate).
    private static func adding(_ a: Int, _ b: Int?) -> Int? {
        guard let b else { return nil }
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : sum
    }

    /// `a - b`, or nil on overflow.
    private static func subtracting(_ a: Int, _ b: Int) -> Int? {
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? nil : difference
    }
}
