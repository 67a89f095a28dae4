/// libcatena_vtk.so: VTK's side of the VTK output (io/vtk_grid_encoder.hpp). Built as a module of
/// its own, with VTK as its only dependency beyond the C++ library (io/vtk_module.hpp says why).
#include "io/vtk_grid_encoder.hpp"

#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDataSetAttributes.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkObjectFactory.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkSmartPointer.h>
#include <vtkStringArray.h>
#include <vtkUnsignedCharArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLPUnstructuredGridWriter.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <array>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace catena::io::vtk {

namespace {

/// Writes the .pvtu of a frame whose pieces the ranks have written themselves (rank 0 only, no
/// MPI inside VTK). vtkXMLPUnstructuredGridWriter writes the summary for the pieces it marks as
/// written in WritePieceInternal, after writing them itself; here the pieces exist already (each
/// rank wrote its own, atomically, and the writer would write rank 0's grid as every piece), so
/// only the marks are set. Its arrays and field data come from rank 0's piece, which has every
/// array. This avoids a vtkMPIController, whose collective summary (a Reduce after the piece is
/// written) hangs every rank when one rank's piece fails.
class PieceIndexWriter final : public vtkXMLPUnstructuredGridWriter {
 public:
  static PieceIndexWriter* New();
  vtkTypeMacro(PieceIndexWriter, vtkXMLPUnstructuredGridWriter)
  /// 1 for each rank that wrote a piece of the frame.
  std::vector<unsigned char> pieces_written;

 protected:
  PieceIndexWriter() = default;
  ~PieceIndexWriter() override = default;
  int WritePieceInternal() override {
    for (int i = 0; i < this->NumberOfPieces; ++i)
      this->PieceWrittenFlags[i] = pieces_written.at(static_cast<std::size_t>(i));
    return 1;
  }
};
vtkStandardNewMacro(PieceIndexWriter)

vtkSmartPointer<vtkDoubleArray> new_point_array(vtkUnstructuredGrid& grid, const char* name, int components,
                                            vtkIdType n_points) {
  auto a = vtkSmartPointer<vtkDoubleArray>::New();
  a->SetName(name);
  a->SetNumberOfComponents(components);
  a->SetNumberOfTuples(n_points);
  a->FillValue(0.0);
  grid.GetPointData()->AddArray(a);
  return a;
}

int vtk_cell_type(CellShape shape) {
  switch (shape) {
    case CellShape::Vertex: return VTK_VERTEX;
    case CellShape::Line: return VTK_LINE;
    case CellShape::PolyLine: return VTK_POLY_LINE;
    case CellShape::Triangle: return VTK_TRIANGLE;
    case CellShape::Quad: return VTK_QUAD;
    case CellShape::Polygon: return VTK_POLYGON;
  }
  throw std::invalid_argument("VTK output: no such cell shape");
}

class VtkGridEncoder final : public GridEncoder {
 public:
  explicit VtkGridEncoder(const GridLayout& layout) {
    const auto n_points = static_cast<vtkIdType>(layout.n_points());
    points_->SetDataTypeToDouble();
    points_->SetNumberOfPoints(n_points);
    for (vtkIdType i = 0; i < n_points; ++i) {
      const double* x = layout.reference_points.data() + 3 * i;
      points_->SetPoint(i, x[0], x[1], x[2]);
    }
    grid_->SetPoints(points_);
    grid_->AllocateExact(static_cast<vtkIdType>(layout.n_cells()), static_cast<vtkIdType>(layout.cell_points.size()));
    for (std::size_t c = 0; c < layout.n_cells(); ++c) {
      const int type = vtk_cell_type(layout.cell_shapes[c]);
      const auto begin = layout.cell_offsets[c], end = layout.cell_offsets[c + 1];
      std::vector<vtkIdType> ids(layout.cell_points.begin() + begin, layout.cell_points.begin() + end);
      grid_->InsertNextCell(type, static_cast<vtkIdType>(ids.size()), ids.data());
    }
    if (layout.node_arrays) add_node_arrays(layout);
    for (const auto& [name, components] : layout.point_fields)
      point_fields_.push_back(new_point_array(*grid_, name.c_str(), components, n_points));
    for (const auto& [name, components] : layout.cell_fields) add_cell_field(name, components);
    for (const auto& [name, values] : layout.cell_labels) {
      auto labels = vtkSmartPointer<vtkIntArray>::New();
      labels->SetName(name.c_str());
      labels->SetNumberOfTuples(grid_->GetNumberOfCells());
      for (vtkIdType c = 0; c < grid_->GetNumberOfCells(); ++c) labels->SetValue(c, values.at(static_cast<std::size_t>(c)));
      grid_->GetCellData()->AddArray(labels);
      cell_labels_.push_back(labels);
    }
    time_->SetName("TIME");
    time_->SetNumberOfTuples(1);
    time_->SetValue(0, 0.0);
    grid_->GetFieldData()->AddArray(time_);
    for (const auto& [name, text] : layout.field_strings) {
      vtkNew<vtkStringArray> string;
      string->SetName(name.c_str());
      string->InsertNextValue(text);
      grid_->GetFieldData()->AddArray(string);
    }

    writer_->SetInputData(grid_);
    writer_->SetDataModeToAppended();
    writer_->EncodeAppendedDataOff();  // raw binary
    if (layout.compressed && layout.fast_compression)
      writer_->SetCompressorTypeToLZ4();
    else if (layout.compressed)
      writer_->SetCompressorTypeToZLib();
    else
      writer_->SetCompressorTypeToNone();
    writer_->SetHeaderTypeToUInt64();  // arrays over 4 GiB in large models
    writer_->WriteToOutputStringOn();
  }

  /// results.vtu's node arrays, in their order in the file (io/vtk_writer.hpp).
  void add_node_arrays(const GridLayout& layout) {
    const auto n_points = static_cast<vtkIdType>(layout.n_points());
    displacement_ = new_point_array(*grid_, "displacement", 3, n_points);
    velocity_ = new_point_array(*grid_, "velocity", 3, n_points);
    vtkNew<vtkIntArray> node_id;
    node_id->SetName("node_id");
    node_id->SetNumberOfTuples(n_points);
    for (vtkIdType i = 0; i < n_points; ++i) node_id->SetValue(i, layout.node_id[static_cast<std::size_t>(i)]);
    grid_->GetPointData()->AddArray(node_id);
    orientation_ = new_point_array(*grid_, "orientation", 4, n_points);
    const std::array<const char*, 4> quaternion_components{"w", "x", "y", "z"};
    for (int c = 0; c < 4; ++c) orientation_->SetComponentName(c, quaternion_components[static_cast<std::size_t>(c)]);
    for (std::size_t k = 0; k < directors_.size(); ++k)
      directors_[k] = new_point_array(*grid_, ("director_" + std::to_string(k + 1)).c_str(), 3, n_points);
    angular_velocity_ = new_point_array(*grid_, "angular_velocity", 3, n_points);
    auto radius = new_point_array(*grid_, "section_radius", 1, n_points);
    for (vtkIdType i = 0; i < n_points; ++i) radius->SetValue(i, layout.section_radius[static_cast<std::size_t>(i)]);
    vtkNew<vtkIntArray> frame_node;
    frame_node->SetName("frame_node");
    frame_node->SetNumberOfTuples(n_points);
    for (vtkIdType i = 0; i < n_points; ++i) frame_node->SetValue(i, layout.frame_node[static_cast<std::size_t>(i)]);
    grid_->GetPointData()->AddArray(frame_node);
    if (!layout.owned_elsewhere.empty()) {
      vtkNew<vtkUnsignedCharArray> ghosts;
      ghosts->SetName(vtkDataSetAttributes::GhostArrayName());
      ghosts->SetNumberOfTuples(n_points);
      for (vtkIdType i = 0; i < n_points; ++i)
        ghosts->SetValue(i, layout.owned_elsewhere[static_cast<std::size_t>(i)] ? vtkDataSetAttributes::DUPLICATEPOINT : 0);
      grid_->GetPointData()->AddArray(ghosts);
    }
  }

  double* points() override { return vtkDoubleArray::SafeDownCast(points_->GetData())->GetPointer(0); }

  double* point_array(PointArray which) override {
    if (!displacement_) throw std::invalid_argument("VTK output: a grid without node arrays");
    switch (which) {
      case PointArray::Displacement: return displacement_->GetPointer(0);
      case PointArray::Velocity: return velocity_->GetPointer(0);
      case PointArray::Orientation: return orientation_->GetPointer(0);
      case PointArray::Director1: return directors_[0]->GetPointer(0);
      case PointArray::Director2: return directors_[1]->GetPointer(0);
      case PointArray::Director3: return directors_[2]->GetPointer(0);
      case PointArray::AngularVelocity: return angular_velocity_->GetPointer(0);
    }
    throw std::invalid_argument("VTK output: no such point array");
  }

  double* point_field(std::size_t k) override { return point_fields_.at(k)->GetPointer(0); }

  double* cell_field(std::size_t k) override { return cell_fields_.at(k)->GetPointer(0); }

  std::size_t add_cell_field(const std::string& name, int components) override {
    auto values = vtkSmartPointer<vtkDoubleArray>::New();
    values->SetName(name.c_str());
    values->SetNumberOfComponents(components);
    values->SetNumberOfTuples(grid_->GetNumberOfCells());
    values->FillValue(std::numeric_limits<double>::quiet_NaN());
    grid_->GetCellData()->AddArray(values);
    cell_fields_.push_back(values);
    return cell_fields_.size() - 1;
  }

  std::string encode(double t) override {
    set_time(t);
    if (writer_->Write() != 1) throw std::runtime_error("VTK could not encode the frame");
    return writer_->GetOutputString();
  }

  std::string encode_summary(double t, const std::string& file, const std::vector<unsigned char>& written) override {
    set_time(t);
    vtkNew<PieceIndexWriter> summary;
    summary->pieces_written = written;
    summary->SetController(nullptr);  // no MPI inside VTK: the pieces are marked above
    summary->SetInputData(grid_);
    summary->SetNumberOfPieces(static_cast<int>(written.size()));
    summary->SetStartPiece(0);
    summary->SetEndPiece(0);
    summary->SetDataModeToAppended();
    summary->SetHeaderTypeToUInt64();
    // The file name only names the pieces (<stem>_<rank>.vtu); the text goes to a string.
    summary->SetFileName(file.c_str());
    summary->WriteToOutputStringOn();
    if (summary->Write() != 1) throw std::runtime_error("VTK could not encode the frame's summary");
    return summary->GetOutputString();
  }

 private:
  /// The frame's values were written through the pointers: everything is marked modified.
  void set_time(double t) {
    time_->SetValue(0, t);
    points_->Modified();
    for (vtkDoubleArray* a : {displacement_.Get(), velocity_.Get(), orientation_.Get(), directors_[0].Get(),
                              directors_[1].Get(), directors_[2].Get(), angular_velocity_.Get(), time_.Get()})
      if (a != nullptr) a->Modified();
    for (auto& f : point_fields_) f->Modified();
    // Constant, but marked too: VTK keeps a range it computed in an array's information and
    // writes it into the next file, so a file would depend on whether a frame came before it (a
    // restarted run's first frame would differ from the uninterrupted run's).
    for (auto& f : cell_labels_) f->Modified();
    for (auto& f : cell_fields_) f->Modified();
    grid_->Modified();
  }

  vtkNew<vtkUnstructuredGrid> grid_;
  vtkNew<vtkPoints> points_;
  vtkSmartPointer<vtkDoubleArray> displacement_, velocity_, orientation_, angular_velocity_;
  std::array<vtkSmartPointer<vtkDoubleArray>, 3> directors_;
  std::vector<vtkSmartPointer<vtkDoubleArray>> point_fields_, cell_fields_;
  std::vector<vtkSmartPointer<vtkIntArray>> cell_labels_;
  vtkNew<vtkDoubleArray> time_;
  vtkNew<vtkXMLUnstructuredGridWriter> writer_;
};

GridEncoder* create(const GridLayout& layout) { return new VtkGridEncoder(layout); }

}  // namespace

}  // namespace catena::io::vtk

extern "C" __attribute__((visibility("default"))) catena::io::vtk::GridEncoder* catena_vtk_create_grid_encoder(
    const catena::io::vtk::GridLayout& layout) {
  return catena::io::vtk::create(layout);
}
