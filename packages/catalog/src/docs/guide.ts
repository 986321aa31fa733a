/**
 * The built-in `mcp` topic: how an agent gets going with this server. Served even without a
 * docs directory, so it names only tools and resources this catalog registers.
 */
export const MCP_GUIDE = `# Using cloudg through MCP

1. See what is loaded with \`workspace_status\`. Load an inventory with \`load_dataset(path=...)\`
   (an inventory-map.json, a findings.json or scanner output under an allowed root), or collect
   one live with \`map_inventory\` when the server has an engine and cloud credentials.
2. Get the shape of the estate: \`dataset_summary\`, \`count_assets(group_by=...)\`, \`findings_summary\`.
3. Decide where to look: \`top_risks\`, \`internet_exposure\`, \`attack_paths\`.
4. Follow one asset: \`get_asset(ref)\`, \`findings_for_asset\`, \`neighbors\`, \`blast_radius\`,
   \`dependency_tree\`, \`find_paths\`.
5. Check compliance: \`compliance_summary\`, \`list_controls\`, \`control_status\`, \`compliance_gaps\`.
6. Use exact vocabulary in filters: \`describe_schema\`, or read \`cloudg://schema/asset-types\`,
   \`cloudg://schema/edge-types\` and \`cloudg://schema/relation-types\`.

Results link to resources (\`cloudg://assets/{ref}\`, \`cloudg://findings/{id}\`...) instead of
inlining large payloads; read them when you need the detail. Long lists come in pages: pass the
returned cursor to get the next one. What you see depends on the server's policy: identifiers
may be pseudonyms (\`privacy_status\` says so), and \`cloudg://policy\` shows the rules in force.
The other topics of \`cloudg://docs\` hold the user guide.
`;
