// `mpirun -np P kinetoscope-cli-mpi summarize ...`: each MPI process summarises
// its share of the files (shard p of P) into a part in its local temporary
// folder; rank 0 receives the parts' bytes over MPI (no shared file system
// needed), merges them and writes the summary. Only in kinetoscope-cli-mpi,
// the one executable that links MPI (package kinetoscope-mpi).

#include "app/cli/mpi/mpi_summarize.h"

#include "app/cli/mpi/mpi_launch.h"
#include "core/summary/job_summarizer.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mpi.h>
#include <ostream>
#include <unistd.h>

namespace ks::cli {

namespace {

    constexpr int kSizeTag = 1;
    constexpr int kDataTag = 2;
    constexpr std::int64_t kChunk = 1 << 30; // MPI counts are int: send large parts in pieces

    std::string partPath(int rank)
    {
        const auto dir = std::filesystem::temp_directory_path();
        return (
            dir / ("kinetoscope-part-" + std::to_string(::getpid()) + "-" + std::to_string(rank) + ".kssum"))
            .string();
    }

    void sendPart(const std::string& path, bool ok)
    {
        std::string bytes;
        if (ok) {
            std::ifstream in(path, std::ios::binary);
            bytes.assign(std::istreambuf_iterator<char>(in), {});
            ok = in.good() || in.eof();
        }
        std::int64_t size = ok ? static_cast<std::int64_t>(bytes.size()) : -1;
        MPI_Send(&size, 1, MPI_INT64_T, 0, kSizeTag, MPI_COMM_WORLD);
        for (std::int64_t at = 0; at < size; at += kChunk)
            MPI_Send(bytes.data() + at, static_cast<int>(std::min(kChunk, size - at)), MPI_BYTE, 0, kDataTag,
                MPI_COMM_WORLD);
    }

    // Receives process `from`'s part into a file; false when it had none.
    bool receivePart(int from, const std::string& path)
    {
        std::int64_t size = 0;
        MPI_Recv(&size, 1, MPI_INT64_T, from, kSizeTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (size < 0)
            return false;
        std::string bytes(static_cast<std::size_t>(size), '\0');
        for (std::int64_t at = 0; at < size; at += kChunk)
            MPI_Recv(bytes.data() + at, static_cast<int>(std::min(kChunk, size - at)), MPI_BYTE, from,
                kDataTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        std::ofstream out(path, std::ios::binary);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        return out.good();
    }

    int gatherAndMerge(int size, const SummarizeCli& cli, bool ownOk, std::ostream& out, std::ostream& err)
    {
        std::vector<std::string> parts;
        bool ok = ownOk;
        if (ownOk)
            parts.push_back(partPath(0));
        for (int from = 1; from < size; ++from) {
            const std::string path = partPath(from);
            if (receivePart(from, path)) {
                parts.push_back(path);
            } else {
                err << cli.command << ": MPI process " << from
                    << " could not summarise its files (see its error)\n";
                ok = false;
            }
        }
        int status = 1;
        if (ok) {
            auto merged = core::mergeSummaries(parts, cli.out);
            if (merged)
                status = reportSummary(cli.out, cli.command, out, err);
            else
                err << cli.command << ": " << merged.error().describe() << '\n';
        }
        for (const std::string& part : parts)
            std::remove(part.c_str());
        return status;
    }

} // namespace

std::optional<int> summarizeUnderMpi(const SummarizeCli& cli, std::ostream& out, std::ostream& err)
{
    // A plain run never initialises MPI (singleton start-up is slow and prints
    // warnings on some systems).
    if (mpiProcessCount() == 0)
        return std::nullopt;
    MPI_Init(nullptr, nullptr);
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size == 1) {
        MPI_Finalize();
        return std::nullopt;
    }
    if (cli.shardGiven) {
        if (rank == 0)
            err << cli.command
                << ": --shard (or a Slurm array) cannot be combined with mpirun: MPI splits the files\n";
        MPI_Finalize();
        return 2;
    }
    SummarizeCli mine = cli;
    mine.options.shardIndex = static_cast<std::size_t>(rank);
    mine.options.shardCount = static_cast<std::size_t>(size);
    const std::string part = partPath(rank);
    const bool ok = summarizeToFile(mine, part, err) == 0;
    int status = 0;
    if (rank == 0) {
        status = gatherAndMerge(size, cli, ok, out, err);
    } else {
        sendPart(part, ok);
        std::remove(part.c_str());
    }
    MPI_Finalize();
    return status;
}

} // namespace ks::cli
