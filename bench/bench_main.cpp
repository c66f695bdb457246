// Google Benchmark figures for the CPU side: parsing per format, mesh building, camera-leaf
// lookup, per-frame visibility and collision traces on the largest shared maps. Whole-frame figures
// (GPU included) come from `bspview MAP --bench`.
//
//   build/bench/bspview_bench [--benchmark_filter=...]
#include "bsp/entities.h"
#include "bsp/load.h"
#include "bsp/tree.h"
#include "core/file.h"
#include "physics/collision.h"
#include "scene/load/map_bundle.h"
#include "scene/view/visibility.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>

namespace {

struct MapFile {
    const char* label;
    std::string spec;
};

const std::vector<MapFile>& maps() {
    static const std::vector<MapFile> kMaps = {
        {"lq_e1m1", std::string(BSPV_SHARED_MAPS_DIR) + "/q1/lq_e1m1.bsp"},
        {"lq_lq1m1_bsp2", std::string(BSPV_SHARED_MAPS_DIR) + "/q1bsp2/lq_lq1m1.bsp"},
        {"cs_fy_pool_day", std::string(BSPV_SHARED_MAPS_DIR) + "/hl/cs_fy_pool_day.bsp"},
        {"aq_urbanjungle", std::string(BSPV_SHARED_MAPS_DIR) + "/q2/aq_urbanjungle.bsp"},
        {"ctf_compromise",
         std::string(BSPV_OPENARENA_DIR) + "/pak6-patch085.pk3:maps/ctf_compromise.bsp"},
        {"oacmpdm1", std::string(BSPV_OPENARENA_DIR) + "/z_oacmp-volume1-v3.pk3:maps/oacmpdm1.bsp"},
    };
    return kMaps;
}

// Bytes of each map, read once.
const std::vector<uint8_t>& bytesOf(const MapFile& m) {
    static std::map<std::string, std::vector<uint8_t>> cache;
    auto it = cache.find(m.spec);
    if (it == cache.end()) {
        std::string display;
        auto bytes = content::readMapSpec(m.spec, &display);
        if (!bytes) {
            std::fprintf(stderr, "%s\n", bytes.error().message().c_str());
            std::abort();
        }
        it = cache.emplace(m.spec, std::move(*bytes)).first;
    }
    return it->second;
}

const bsp::Map& mapOf(const MapFile& m) {
    static std::map<std::string, std::unique_ptr<bsp::Map>> cache;
    auto it = cache.find(m.spec);
    if (it == cache.end()) {
        auto map = bsp::loadMap(bytesOf(m), m.label);
        if (!map) {
            std::fprintf(stderr, "%s\n", map.error().message().c_str());
            std::abort();
        }
        it = cache.emplace(m.spec, std::make_unique<bsp::Map>(std::move(*map))).first;
    }
    return *it->second;
}

void BM_Parse(benchmark::State& state, const MapFile* m) {
    const auto& bytes = bytesOf(*m);
    for (auto _ : state) {
        auto map = bsp::loadMap(bytes, m->label);
        benchmark::DoNotOptimize(map.ok());
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
}

void BM_MeshBuild(benchmark::State& state, const MapFile* m) {
    const bsp::Map& map = mapOf(*m);
    for (auto _ : state) {
        scene::WorldMesh mesh = scene::buildWorldMesh(map);
        benchmark::DoNotOptimize(mesh.triangles);
    }
}

// The eye positions of a benchmark: every spawn point, 26 units up.
std::vector<scene::Camera> spawnCameras(const bsp::Map& map) {
    std::vector<scene::Camera> cams;
    for (const bsp::SpawnPoint& s : bsp::findSpawnPoints(map)) {
        scene::Camera c;
        c.position = s.origin + glm::vec3(0, 0, 26);
        c.yaw = s.yaw;
        cams.push_back(c);
    }
    if (cams.empty())
        cams.push_back(scene::Camera());
    return cams;
}

void BM_PointLeaf(benchmark::State& state, const MapFile* m) {
    const bsp::Map& map = mapOf(*m);
    const auto cams = spawnCameras(map);
    size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(bsp::pointLeaf(map, cams[i++ % cams.size()].position));
    }
}

// One frame of visibility: camera leaf, PVS (recomputed when the cluster changes, which it
// does on every spawn change here: the worst case), frustum and draw-list build.
void BM_Visibility(benchmark::State& state, const MapFile* m) {
    const bsp::Map& map = mapOf(*m);
    const scene::WorldMesh mesh = scene::buildWorldMesh(map);
    scene::Visibility vis(map, mesh);
    scene::DrawList list;
    const auto cams = spawnCameras(map);
    const bool same_cluster = state.range(0) != 0;
    size_t i = 0;
    uint64_t faces = 0;
    for (auto _ : state) {
        const scene::Camera& c = cams[same_cluster ? 0 : i++ % cams.size()];
        vis.update(c, {}, list);
        faces += list.stats.faces_drawn;
    }
    state.counters["faces"] =
        benchmark::Counter(static_cast<double>(faces), benchmark::Counter::kAvgIterations);
    state.counters["spawns"] = static_cast<double>(cams.size());
}

// One player-box trace (the map's hull 1 box: Quake 32x32x56, Half-Life 32x32x72, Quake 3
// 30x30x56) against the world and its solid brush models, from random starts outside solid
// (fixed seed) along random directions, 64 units (a few frames of running; state.range(0)
// gives the length). Movement code runs a handful of these per frame.
void BM_Trace(benchmark::State& state, const MapFile* m) {
    const bsp::Map& map = mapOf(*m);
    const physics::CollisionWorld world(map);
    const bsp::HullSize box = world.hullSize(1);
    const float length = static_cast<float>(state.range(0));
    std::mt19937 rng(7);
    const glm::vec3 lo = map.worldMins(), hi = map.worldMaxs();
    std::uniform_real_distribution<float> ux(lo.x, hi.x), uy(lo.y, hi.y), uz(lo.z, hi.z);
    std::uniform_real_distribution<float> dir(-1.0f, 1.0f);
    std::vector<std::pair<glm::vec3, glm::vec3>> moves;
    for (int tries = 0; moves.size() < 1024 && tries < 1000000; ++tries) {
        const glm::vec3 start(ux(rng), uy(rng), uz(rng));
        if (world.pointContents(start, 1) & bsp::kMaskPlayerSolid)
            continue;
        glm::vec3 d(dir(rng), dir(rng), dir(rng));
        const float len = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
        if (len < 1e-3f)
            continue;
        moves.push_back({start, start + d * (length / len)});
    }
    size_t i = 0, hits = 0;
    for (auto _ : state) {
        const auto& mv = moves[i++ % moves.size()];
        const physics::TraceResult t = world.trace(mv.first, mv.second, box.mins, box.maxs);
        hits += t.fraction < 1.0f;
        benchmark::DoNotOptimize(t.fraction);
    }
    state.counters["hit_ratio"] = static_cast<double>(hits) / static_cast<double>(i ? i : 1);
}

int registerAll() {
    for (const MapFile& m : maps()) {
        benchmark::RegisterBenchmark((std::string("parse/") + m.label).c_str(), BM_Parse, &m)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark((std::string("mesh/") + m.label).c_str(), BM_MeshBuild, &m)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark((std::string("point_leaf/") + m.label).c_str(), BM_PointLeaf,
                                     &m);
        benchmark::RegisterBenchmark((std::string("visibility/") + m.label).c_str(), BM_Visibility,
                                     &m)
            ->ArgName("same_cluster")
            ->Arg(1)
            ->Arg(0)
            ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark((std::string("trace/") + m.label).c_str(), BM_Trace, &m)
            ->ArgName("length")
            ->Arg(64)
            ->Arg(512);
    }
    return 0;
}
const int kRegistered = registerAll();

} // namespace

BENCHMARK_MAIN();
