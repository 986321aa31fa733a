/**
 * The package arrows of ../shared/ARCHITECTURE.md, enforced (`pnpm check-deps`, and in
 * `pnpm test` through scripts/check-deps.test.ts).
 *
 * Workspace packages are resolved as their dependents see them: through the symlink in the
 * dependent's node_modules (preserveSymlinks) and the `@cloudg/source` export condition. So an
 * import of `@cloudg/core` from packages/policy resolves to
 * `packages/policy/node_modules/@cloudg/core/src/index.ts`, and dependency-cruiser checks it
 * against packages/policy/package.json like any npm dependency.
 */

/** A module inside a workspace package: `packages/<name>/...` or `apps/<name>/...`. */
const IN_PACKAGE = '^(packages|apps)/([^/]+)/';
/** A workspace package reached through node_modules, as a dependent imports it. */
const cloudg = (names) => `node_modules/@cloudg/(${names})/`;
/** Tests, examples and benchmarks: they may use dev dependencies. */
const NOT_SHIPPED = '(\\.test\\.ts$|/test/|/examples/|/bench/)';

module.exports = {
  forbidden: [
    {
      name: 'undeclared-dependency',
      comment:
        'A package imports a package that its package.json does not declare. Add it to dependencies ' +
        '(or devDependencies for tests), with workspace:^ for a cloudg package.',
      severity: 'error',
      from: { path: IN_PACKAGE },
      // dependency-cruiser reads every package.json key containing "ependencies" as a list, so a
      // package named in `peerDependenciesMeta` also gets `npm-no-pkg`: declared elsewhere is declared.
      to: {
        dependencyTypes: ['npm-no-pkg', 'npm-unknown'],
        dependencyTypesNot: ['npm', 'npm-dev', 'npm-peer', 'npm-optional'],
      },
    },
    {
      name: 'deep-import',
      comment:
        "A package reaches into another package's files instead of importing its entry point " +
        '(the name in its package.json exports).',
      severity: 'error',
      from: { path: IN_PACKAGE },
      to: { path: '^(packages|apps)/', pathNot: '^$1/$2/' },
    },
    {
      name: 'deep-import-by-name',
      comment:
        "An import of a path inside a cloudg package (`@cloudg/x/src/...`): only the package's " +
        'exported entry points may be imported.',
      severity: 'error',
      from: { path: IN_PACKAGE },
      to: { couldNotResolve: true, path: '^@cloudg/[^/]+/.+' },
    },
    {
      name: 'unresolvable',
      comment:
        'An import that resolves to nothing (a typo, a missing file, a path a package does not export).',
      severity: 'error',
      from: { path: IN_PACKAGE },
      // Build outputs (`../dist/...`, imported by a package's post-build scripts) exist only after
      // `pnpm build`, which CI runs beside this check on a fresh clone.
      to: { couldNotResolve: true, pathNot: ['^@cloudg/[^/]+/.+', '(^|/)dist/'] },
    },
    {
      name: 'runtime-dev-dependency',
      comment:
        'Shipped code imports a devDependency at runtime: users installing the package would not ' +
        'get it. Declare it in dependencies, or import types only. A dev dependency that is also a ' +
        '(possibly optional) peer dependency is fine: users who reach that code install it.',
      severity: 'error',
      from: { path: '^(packages|apps)/[^/]+/src/', pathNot: [NOT_SHIPPED, '^packages/conformance/'] },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only', 'npm-peer'] },
    },
    {
      name: 'privacy-standalone',
      comment: '@cloudg/privacy installs and works alone: it imports no other cloudg package.',
      severity: 'error',
      from: { path: '^packages/privacy/' },
      to: { path: cloudg('[^/]+') },
    },
    {
      name: 'core-domain-free',
      comment: '@cloudg/core is the layer every package builds on: it imports no other cloudg package.',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { path: cloudg('[^/]+') },
    },
    {
      name: 'policy-direction',
      comment: '@cloudg/policy depends on core and privacy only, never on the catalog or the transports.',
      severity: 'error',
      from: { path: '^packages/policy/' },
      to: { path: cloudg('catalog|transports|server|cli') },
    },
    {
      name: 'catalog-direction',
      comment:
        '@cloudg/catalog depends on core at runtime, never on policy or the transports (its tests ' +
        'may use policy, as a dev dependency).',
      severity: 'error',
      from: { path: '^packages/catalog/', pathNot: NOT_SHIPPED },
      to: { path: cloudg('policy|transports|server|cli') },
    },
    {
      name: 'catalog-privacy-types-only',
      comment: '@cloudg/catalog may use @cloudg/privacy for types only (where a tool shows policy data).',
      severity: 'error',
      from: { path: '^packages/catalog/', pathNot: NOT_SHIPPED },
      to: { path: cloudg('privacy'), dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'transports-direction',
      comment: '@cloudg/transports depends on core only: no catalog, policy or privacy.',
      severity: 'error',
      from: { path: '^packages/transports/' },
      to: { path: cloudg('catalog|policy|privacy|server|cli') },
    },
    {
      name: 'adapters-direction',
      comment:
        '@cloudg/adapters mounts a layer: it depends on core and the transports only (its tests may ' +
        'build a catalog layer with a policy, as dev dependencies).',
      severity: 'error',
      from: { path: '^packages/adapters/', pathNot: NOT_SHIPPED },
      to: { path: cloudg('catalog|policy|privacy|server|cli') },
    },
    {
      name: 'nothing-below-adapters',
      comment:
        'The adapters sit on top of the libraries: core, privacy, policy, the catalog and the ' +
        'transports never import them.',
      severity: 'error',
      from: { path: '^packages/(core|privacy|policy|catalog|transports)/' },
      to: { path: cloudg('adapters') },
    },
    {
      name: 'adapters-frameworks-on-their-entry-points',
      comment:
        'A framework (the MCP SDK, fastmcp, openai, @anthropic-ai/sdk, ai) is an optional peer dependency of ' +
        '@cloudg/adapters, reached only from its own entry point (src/sdk, src/fastmcp, src/formats/<name>.ts), ' +
        'so that the framework-free entry point loads without any of them.',
      severity: 'error',
      from: {
        path: '^packages/adapters/src/',
        pathNot: ['^packages/adapters/src/(sdk|fastmcp|formats)/', NOT_SHIPPED],
      },
      to: { path: 'node_modules/(@modelcontextprotocol/server|fastmcp|openai|@anthropic-ai/sdk|ai)/' },
    },
    {
      name: 'collectors-direction',
      comment:
        "@cloudg/collectors implements the catalog's live engine port: it depends on the catalog's " +
        'public API and core only, never on policy, privacy, the transports or the adapters.',
      severity: 'error',
      from: { path: '^packages/collectors/', pathNot: NOT_SHIPPED },
      to: { path: cloudg('policy|privacy|transports|adapters') },
    },
    {
      name: 'nothing-below-collectors',
      comment:
        'The cloud collectors sit on top of the catalog: no library imports them (an embedder, or ' +
        '`cloudg-mcp --engine`, supplies them), so loading files never installs or loads a cloud SDK.',
      severity: 'error',
      from: { path: '^packages/(core|privacy|policy|catalog|transports|adapters)/' },
      to: { path: cloudg('collectors') },
    },
    {
      name: 'redis-direction',
      comment:
        '@cloudg/redis implements the shared-state ports of core (response cache), policy (rate ' +
        'buckets), privacy (vault store) and transports (sessions, change fan-out): it depends on ' +
        'those and nothing above them.',
      severity: 'error',
      from: { path: '^packages/redis/', pathNot: NOT_SHIPPED },
      to: { path: cloudg('catalog|adapters|collectors') },
    },
    {
      name: 'nothing-below-redis',
      comment:
        'Only apps/server composes the Redis stores (--redis-url): no library imports them, so a ' +
        'single-process server never loads a Redis client.',
      severity: 'error',
      from: { path: '^packages/(core|privacy|policy|catalog|transports|adapters|collectors)/' },
      to: { path: cloudg('redis') },
    },
    {
      name: 'redis-client-only-in-redis',
      comment: 'The Redis client is imported by @cloudg/redis only.',
      severity: 'error',
      from: { path: '^(packages|apps)/', pathNot: '^packages/redis/' },
      to: { path: 'node_modules/ioredis/' },
    },
    {
      name: 'cloud-sdks-only-in-collectors',
      comment: 'Cloud SDKs are imported by @cloudg/collectors only.',
      severity: 'error',
      from: { path: '^(packages|apps)/', pathNot: '^packages/collectors/' },
      to: { path: 'node_modules/(@aws-sdk|@azure|@google-cloud|google-auth-library|google-gax)/' },
    },
    {
      name: 'collectors-sdks-on-their-entry-points',
      comment:
        "Each cloud's SDK is reached only from that cloud's entry point (src/aws, src/azure, " +
        'src/gcp), so the shared entry point and the other clouds load without it.',
      severity: 'error',
      from: { path: '^packages/collectors/src/', pathNot: ['^packages/collectors/src/aws/', NOT_SHIPPED] },
      to: { path: 'node_modules/@aws-sdk/' },
    },
    {
      name: 'collectors-azure-sdk-on-its-entry-point',
      comment: 'The Azure SDK is reached only from src/azure, so the other entry points load without it.',
      severity: 'error',
      from: { path: '^packages/collectors/src/', pathNot: ['^packages/collectors/src/azure/', NOT_SHIPPED] },
      to: { path: 'node_modules/@azure/' },
    },
    {
      name: 'collectors-google-sdk-on-its-entry-point',
      comment:
        'The Google Cloud clients are reached only from src/gcp, so the other entry points load without them.',
      severity: 'error',
      from: { path: '^packages/collectors/src/', pathNot: ['^packages/collectors/src/gcp/', NOT_SHIPPED] },
      to: { path: 'node_modules/(@google-cloud|google-auth-library|google-gax)/' },
    },
    {
      name: 'packages-below-apps',
      comment: 'Libraries never import the applications (apps/server, apps/cli).',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: cloudg('server|cli') },
    },
    {
      name: 'server-below-cli',
      comment: 'apps/server composes the layer; the CLI is a shell over it, not the other way round.',
      severity: 'error',
      from: { path: '^apps/server/' },
      to: { path: cloudg('cli') },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    preserveSymlinks: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['@cloudg/source', 'import', 'types', 'node', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
      mainFields: ['module', 'main', 'types'],
    },
    doNotFollow: { path: 'node_modules' },
    // Only the workspace's own build output: a dependency's dist/ is where its entry point lives.
    exclude: { path: '^(packages|apps)/[^/]+/(dist|coverage|\\.turbo)/' },
  },
};
