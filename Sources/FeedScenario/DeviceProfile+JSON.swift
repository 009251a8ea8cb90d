/// Writing a device profile back as the JSON its decoder reads, laid out
/// like the bundled profiles: one number with its rationale per line, keys
/// in a fixed order, so a written profile diffs cleanly against its base.
extension DeviceProfile {
    /// The profile as JSON text that `ScenarioLoader.device(from:file:)` reads back equal.
    package var jsonText: String {
        var lines = ["{"]
        lines.append("  \"schema_version\": \(Scenario.schemaVersion),")
        lines.append("  \"name\": \(json(name)),")
        lines.append("  \"description\": \(json(description)),")
        lines.append("  \"max_refresh_hz\": \(json(maxRefreshHz)),")
        lines.append("  \"screen\": {")
        lines.append("    \"width_pt\": \(json(screenWidthPt)),")
        lines.append("    \"height_pt\": \(json(screenHeightPt)),")
        lines.append("    \"safe_area_top_pt\": \(json(safeAreaTopPt)),")
        lines.append("    \"safe_area_bottom_pt\": \(json(safeAreaBottomPt))")
        lines.append("  },")
        if adaptiveRefresh { lines.append("  \"adaptive_refresh\": true,") }
        lines.append("  \"cost_jitter_sigma\": \(json(costJitterSigma)),")
        lines.append("  \"background\": {")
        lines.append("    \"cores\": \(json(background.cores)),")
        lines.append("    \"speed\": \(json(background.speed))")
        lines.append("  },")
        lines.append("  \"costs_ns\": {")
        let fields = CostTable.fields
        for (i, field) in fields.enumerated() {
            lines.append(
                "    \"\(field.key.rawValue)\": \(json(costs[keyPath: field.path]))" + (i + 1 < fields.count ? "," : "")
            )
        }
        lines.append("  }")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}

extension CostTable {
    /// Every field with its key under `costs_ns`, in the decoder's order.
    static let fields: [(key: Keys, path: WritableKeyPath<CostTable, Rated> & Sendable)] = [
        (.frame_base, \.frameBase), (.cell_configure, \.cellConfigure), (.cell_measure, \.cellMeasure),
        (.item_layout, \.itemLayout), (.height_update, \.heightUpdate), (.offset_query, \.offsetQuery),
        (.diff_element, \.diffElement), (.change_apply, \.changeApply), (.view_model_create, \.viewModelCreate),
        (.decode_per_megapixel, \.decodePerMegapixel),
        (.configure_per_text_character, \.configurePerTextCharacter),
        (.configure_per_media_item, \.configurePerMediaItem),
        (.measure_per_text_character, \.measurePerTextCharacter), (.measure_per_media_item, \.measurePerMediaItem),
        (.measure_per_thread_row, \.measurePerThreadRow),
        (.render_base, \.renderBase), (.render_per_layer, \.renderPerLayer), (.render_per_image, \.renderPerImage),
        (.render_per_offscreen_pass, \.renderPerOffscreenPass), (.background_result, \.backgroundResult),
        (.configure_per_quote, \.configurePerQuote), (.measure_per_quote, \.measurePerQuote),
        (.configure_per_external_card, \.configurePerExternalCard),
        (.measure_per_external_card, \.measurePerExternalCard),
    ]
}

private func json(_ rated: Rated) -> String {
    "{ \"value\": \(json(rated.value)), \"rationale\": \(json(rated.rationale)) }"
}

/// A whole number without a fraction, anything else as the shortest
/// decimal that reads back as the same double.
private func json(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
}

/// A JSON string literal (RFC 8259 §7): quote, backslash and control
/// characters escaped, everything else as UTF-8.
private func json(_ text: String) -> String { JSONText.quoted(text) }
