import RouteMilesCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

let console = StandardConsole()
let status = RouteMilesCLI.run(Array(CommandLine.arguments.dropFirst()), console: console)
console.flush()
exit(status)
