// The honest floor for a Swift command-line tool: the smallest program that imports
// FoundationEssentials, as marcador does. `make bench` compares start-up and memory against it.
import FoundationEssentials

print("marcador-suelo \(Date().timeIntervalSince1970 > 0)")
