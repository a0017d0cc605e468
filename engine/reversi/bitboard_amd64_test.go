package reversi

// platformFlipsVersions: on amd64, flips runs on AVX-512 where the
// processor has it, so the assembly without vectors is tested on its own.
var platformFlipsVersions = []flipsVersion{{"flipsTables", flipsTables}}
